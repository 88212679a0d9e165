#include "engine/transformer/transformernet.h"

#include "engine/core/dropoutstream.h"
#include "engine/core/vocabulary.h"
#include "engine/transformer/sublayers.h"

#include <cmath>
#include <limits>
#include <stdexcept>

namespace {

constexpr float kMinusInfinity = -std::numeric_limits<float>::infinity();

}  // namespace

torch::Tensor sinusoidalEncoding(int count, int width)
{
    const torch::Tensor position = torch::arange(count, torch::kFloat32).unsqueeze(1);
    const torch::Tensor rate =
        torch::exp(torch::arange(0, width, 2, torch::kFloat32) * (-std::log(10000.0) / width));
    torch::Tensor encoding = torch::zeros({count, width});
    encoding.slice(1, 0, width, 2) = torch::sin(position * rate);
    encoding.slice(1, 1, width, 2) = torch::cos(position * rate);
    return encoding;
}

torch::Tensor causalMaskBias(int64_t length)
{
    return torch::full({length, length}, kMinusInfinity).triu(1);
}

torch::Tensor paddingMaskBias(const torch::Tensor &mask)
{
    return torch::zeros(mask.sizes(), torch::kFloat32)
        .masked_fill(mask.logical_not(), kMinusInfinity)
        .view({mask.size(0), 1, 1, mask.size(1)});
}

TransformerNetImpl::TransformerNetImpl(const TransformerConfig &config, int vocabularySize)
    : m_config(config), m_vocabularySize(vocabularySize)
{
    const std::string problem = validate(config);
    if (!problem.empty())
        throw std::invalid_argument(problem);
    const int d = config.modelSize;
    const auto embedding = [&](int count) {
        return torch::nn::Embedding(torch::nn::EmbeddingOptions(count, d).padding_idx(Vocabulary::kPad));
    };
    sourceEmbedding = register_module("source_embedding", embedding(vocabularySize));
    targetEmbedding = register_module("target_embedding", embedding(vocabularySize));
    if (config.positions == PositionEncoding::Learned)
        learnedPositions = register_module("positions", torch::nn::Embedding(config.maxPositions, d));
    else
        sinusoidalPositions = register_buffer("positions", sinusoidalEncoding(config.maxPositions, d));
    encoderLayers = register_module("encoder", torch::nn::ModuleList());
    decoderLayers = register_module("decoder", torch::nn::ModuleList());
    for (int layer = 0; layer < config.layers; ++layer) {
        encoderLayers->push_back(
            EncoderLayer(d, config.heads, config.feedForwardSize, config.dropout, config.preNorm));
        decoderLayers->push_back(
            DecoderLayer(d, config.heads, config.feedForwardSize, config.dropout, config.preNorm));
    }
    if (config.preNorm) {
        encoderNorm = register_module("encoder_norm", layerNorm(d));
        decoderNorm = register_module("decoder_norm", layerNorm(d));
    }
    output = register_module("output", torch::nn::Linear(d, vocabularySize));
    // Xavier-uniform for every matrix, embeddings included: with N(0, 1) embeddings the sqrt(d)
    // scale would drown the positions.
    torch::NoGradGuard noGrad;
    for (torch::Tensor &parameter : parameters())
        if (parameter.dim() > 1)
            torch::nn::init::xavier_uniform_(parameter);
}

torch::Tensor TransformerNetImpl::positioned(const torch::Tensor &tokenEmbeddings, int first)
{
    const int64_t length = tokenEmbeddings.size(1);
    if (first + length > m_config.maxPositions)
        throw std::out_of_range("a sequence of " + std::to_string(first + length) +
                                " tokens is longer than the model's longest sequence, " +
                                std::to_string(m_config.maxPositions));
    const torch::Tensor positions =
        learnedPositions ? learnedPositions->weight.narrow(0, first, length)
                         : sinusoidalPositions.narrow(0, first, length);
    const torch::Tensor x = tokenEmbeddings * std::sqrt(double(m_config.modelSize)) + positions;
    return dropoutFromStream(x, m_config.dropout, is_training());
}

EncodedSource TransformerNetImpl::encode(const torch::Tensor &source, const torch::Tensor &sourceMask,
                                         TransformerAttention *attention)
{
    return encodeEmbeddings(sourceEmbedding(source), sourceMask, attention);
}

EncodedSource TransformerNetImpl::encodeEmbeddings(const torch::Tensor &tokenEmbeddings,
                                                   const torch::Tensor &sourceMask, TransformerAttention *attention)
{
    EncodedSource encoded;
    encoded.maskBias = paddingMaskBias(sourceMask);
    torch::Tensor x = positioned(tokenEmbeddings, 0);
    for (const auto &module : *encoderLayers) {
        auto [y, weights] = module->as<EncoderLayerImpl>()->forward(x, encoded.maskBias);
        x = y;
        if (attention)
            attention->encoderSelf.push_back(weights);
    }
    encoded.memory = encoderNorm ? encoderNorm(x) : x;
    return encoded;
}

torch::Tensor TransformerNetImpl::decode(const EncodedSource &source, const torch::Tensor &targetIn,
                                         TransformerAttention *attention)
{
    const torch::Tensor causal = causalMaskBias(targetIn.size(1));
    torch::Tensor x = positioned(targetEmbedding(targetIn), 0);
    for (const auto &module : *decoderLayers) {
        DecoderLayerOutput out = module->as<DecoderLayerImpl>()->forward(x, source.memory, causal, source.maskBias);
        x = out.output;
        if (attention) {
            attention->decoderSelf.push_back(out.selfWeights);
            attention->cross.push_back(out.crossWeights);
        }
    }
    return output(decoderNorm ? decoderNorm(x) : x);
}

torch::Tensor TransformerNetImpl::decodeStep(const EncodedSource &source, const torch::Tensor &tokens, int position,
                                             std::vector<DecoderLayerCache> &caches, TransformerAttention *attention)
{
    caches.resize(decoderLayers->size());
    torch::Tensor x = positioned(targetEmbedding(tokens.unsqueeze(1)), position);
    for (size_t layer = 0; layer < decoderLayers->size(); ++layer) {
        DecoderLayerOutput out =
            decoderLayers[layer]->as<DecoderLayerImpl>()->step(x, source.memory, source.maskBias, caches[layer]);
        x = out.output;
        if (attention) {
            attention->decoderSelf.push_back(out.selfWeights);
            attention->cross.push_back(out.crossWeights);
        }
    }
    return output(decoderNorm ? decoderNorm(x) : x).squeeze(1);
}

torch::Tensor TransformerNetImpl::forward(const torch::Tensor &source, const torch::Tensor &sourceMask,
                                          const torch::Tensor &targetIn, TransformerAttention *attention)
{
    return decode(encode(source, sourceMask, attention), targetIn, attention);
}
