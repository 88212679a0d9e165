#include "engine/transformer/transformerinference.h"

#include "engine/core/vocabulary.h"
#include "engine/transformer/floatlayers.h"
#include "engine/transformer/transformernet.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace {

std::vector<float> values(const torch::Tensor &tensor)
{
    const torch::Tensor c = tensor.detach().contiguous();
    return std::vector<float>(c.data_ptr<float>(), c.data_ptr<float>() + c.numel());
}

floatlayers::Linear linearWeights(const torch::Tensor &weight, const torch::Tensor &bias)
{
    return {int(weight.size(1)), int(weight.size(0)), values(weight.t()), values(bias)};
}

floatlayers::Linear linearWeights(torch::nn::Linear &module)
{
    return linearWeights(module->weight, module->bias);
}

floatlayers::Norm normWeights(torch::nn::LayerNorm &module)
{
    return {values(module->weight), values(module->bias)};
}

floatlayers::Attention attentionWeights(MultiHeadAttention &module)
{
    return {linearWeights(module->inProjWeight, module->inProjBias), linearWeights(module->outProj)};
}

LayeredAttention emptyAttention(int layers, int heads)
{
    LayeredAttention attention;
    attention.weights.assign(std::size_t(layers), std::vector<std::vector<float>>(std::size_t(heads)));
    return attention;
}

void checkSequenceLength(int count, int maxPositions)
{
    if (count > maxPositions)
        throw std::out_of_range("a sequence of " + std::to_string(count) +
                                " tokens is longer than the model's longest sequence, " + std::to_string(maxPositions));
}

}  // namespace

struct TransformerInference::Weights {
    int width = 0;
    int heads = 0;
    int maxPositions = 0;
    bool preNorm = true;
    std::vector<float> sourceEmbedding, targetEmbedding, positions;  // rows of `width`
    std::vector<floatlayers::Layer> encoder, decoder;
    floatlayers::Norm encoderNorm, decoderNorm;  // pre-LN only
    floatlayers::Linear output;
};

TransformerInference::TransformerInference(TransformerNetImpl &net)
{
    torch::NoGradGuard noGrad;
    auto w = std::make_unique<Weights>();
    const TransformerConfig &config = net.config();
    w->width = config.modelSize;
    w->heads = config.heads;
    w->maxPositions = config.maxPositions;
    w->preNorm = config.preNorm;
    w->sourceEmbedding = values(net.sourceEmbedding->weight);
    w->targetEmbedding = values(net.targetEmbedding->weight);
    w->positions = values(net.learnedPositions ? net.learnedPositions->weight : net.sinusoidalPositions);
    for (const auto &module : *net.encoderLayers) {
        auto *layer = module->as<EncoderLayerImpl>();
        w->encoder.push_back({attentionWeights(layer->self_attn), {}, linearWeights(layer->linear1), linearWeights(layer->linear2),
                              normWeights(layer->norm1), normWeights(layer->norm2), {}});
    }
    for (const auto &module : *net.decoderLayers) {
        auto *layer = module->as<DecoderLayerImpl>();
        w->decoder.push_back({attentionWeights(layer->self_attn), attentionWeights(layer->multihead_attn), linearWeights(layer->linear1),
                              linearWeights(layer->linear2), normWeights(layer->norm1), normWeights(layer->norm2), normWeights(layer->norm3)});
    }
    if (config.preNorm) {
        w->encoderNorm = normWeights(net.encoderNorm);
        w->decoderNorm = normWeights(net.decoderNorm);
    }
    w->output = linearWeights(net.output);
    m_weights = std::move(w);
}

TransformerInference::~TransformerInference() = default;

int TransformerInference::layers() const
{
    return int(m_weights->decoder.size());
}

int TransformerInference::heads() const
{
    return m_weights->heads;
}

DecodingState TransformerInference::start(const std::vector<int> &sourceIds, bool recordAttention,
                                          AttentionInputs *inputs) const
{
    using namespace floatlayers;
    const Weights &w = *m_weights;
    const int d = w.width;
    const int headSize = d / w.heads;
    const int sourceLength = int(sourceIds.size());
    checkSequenceLength(sourceLength, w.maxPositions);
    DecodingState state;
    state.sourceLength = sourceLength;
    if (recordAttention) {
        state.encoderSelf = emptyAttention(int(w.encoder.size()), w.heads);
        state.encoderSelf.rows = state.encoderSelf.columns = sourceLength;
    }

    Sublayers sublayers(d, w.preNorm);
    std::vector<float> memory(static_cast<std::size_t>(sourceLength) * d);
    std::vector<float> projected, mixed;
    std::vector<float *> headWeights(static_cast<std::size_t>(w.heads));
    for (int i = 0; i < sourceLength; ++i)
        embedToken(w.sourceEmbedding, w.positions, d, sourceIds[std::size_t(i)], i, memory.data() + std::size_t(i) * d);
    for (std::size_t l = 0; l < w.encoder.size(); ++l) {
        const Layer &layer = w.encoder[l];
        if (recordAttention)
            for (int h = 0; h < w.heads; ++h) {
                std::vector<float> &head = state.encoderSelf.weights[l][std::size_t(h)];
                head.assign(std::size_t(sourceLength) * sourceLength, 0.0f);
                headWeights[std::size_t(h)] = head.data();
            }
        sublayers.run(memory, sourceLength, layer.norm1, [&](const float *in, float *out) {
            if (inputs)
                inputs->encoderSelf.emplace_back(in, in + std::size_t(sourceLength) * d);
            projected.resize(std::size_t(sourceLength) * 3 * d);
            mixed.resize(std::size_t(sourceLength) * d);
            apply(layer.self.in, in, sourceLength, projected.data());
            attend({projected.data(), 3 * d}, {projected.data() + d, 3 * d}, {projected.data() + 2 * d, 3 * d},
                   sourceLength, sourceLength, w.heads, headSize, mixed.data(),
                   recordAttention ? headWeights.data() : nullptr);
            apply(layer.self.out, mixed.data(), sourceLength, out);
        });
        sublayers.feedForward(memory, sourceLength, layer, layer.norm2);
    }
    if (w.preNorm)
        layerNorm(w.encoderNorm, memory.data(), sourceLength, d, memory.data());

    // Each decoder layer's cross-attention keys and values of the source, projected once.
    const int layers = int(w.decoder.size());
    if (inputs) {
        inputs->memory = memory;
        inputs->decoderSelf.assign(std::size_t(layers), {});
        inputs->crossQueries.assign(std::size_t(layers), {});
    }
    state.crossKeysValues.resize(std::size_t(layers));
    for (int l = 0; l < layers; ++l) {
        std::vector<float> &keysValues = state.crossKeysValues[std::size_t(l)];
        keysValues.resize(std::size_t(sourceLength) * 2 * d);
        apply(w.decoder[std::size_t(l)].cross.in, memory.data(), sourceLength, keysValues.data(), d, 2 * d);
    }
    state.selfKeys.assign(1, std::vector<std::vector<float>>(std::size_t(layers)));
    state.selfValues = state.selfKeys;
    return state;
}

namespace {

// The rows of `state` that `parents` continue, each with its own copy of its parent's cache.
void reorderRows(DecodingState &state, const std::vector<int> &parents)
{
    const auto rows = int(state.selfKeys.size());
    bool same = int(parents.size()) == rows;
    for (std::size_t i = 0; i < parents.size(); ++i) {
        if (parents[i] < 0 || parents[i] >= rows)
            throw std::invalid_argument("decoding step: row " + std::to_string(parents[i]) + " does not exist (" +
                                        std::to_string(rows) + " rows)");
        same = same && parents[i] == int(i);
    }
    if (same)
        return;
    std::vector<std::vector<std::vector<float>>> keys, values;
    for (int parent : parents) {
        keys.push_back(state.selfKeys[std::size_t(parent)]);
        values.push_back(state.selfValues[std::size_t(parent)]);
    }
    state.selfKeys = std::move(keys);
    state.selfValues = std::move(values);
}

}  // namespace

DecodingStep TransformerInference::step(DecodingState &state, const std::vector<int> &parents,
                                        const std::vector<int> &tokens, bool recordAttention,
                                        AttentionInputs *inputs) const
{
    using namespace floatlayers;
    if (parents.empty() || parents.size() != tokens.size())
        throw std::invalid_argument("decoding step: " + std::to_string(tokens.size()) + " tokens for " +
                                    std::to_string(parents.size()) + " parent rows");
    if (inputs && (tokens.size() != 1 || int(inputs->decoderSelf.size()) != int(m_weights->decoder.size())))
        throw std::invalid_argument("decoding step: inputs are recorded for one row, after start() recorded its own");
    const Weights &w = *m_weights;
    const int d = w.width;
    const int headSize = d / w.heads;
    const int rows = int(tokens.size());
    const int layers = int(w.decoder.size());
    const int position = state.steps;
    const int keys = position + 1;
    const int sourceLength = state.sourceLength;
    checkSequenceLength(keys, w.maxPositions);

    std::vector<float> x(static_cast<std::size_t>(rows) * d);
    for (int r = 0; r < rows; ++r)
        embedToken(w.targetEmbedding, w.positions, d, tokens[std::size_t(r)], position, x.data() + std::size_t(r) * d);
    // A refused step leaves `state` as it was: the ids and the length are checked above, the
    // parents before anything moves.
    reorderRows(state, parents);

    DecodingStep result;
    // Per row: the cross weights of every layer and head, then the self weights.
    const std::size_t crossWidth = std::size_t(layers) * w.heads * sourceLength;
    const std::size_t rowWidth = crossWidth + std::size_t(layers) * w.heads * keys;
    if (recordAttention)
        result.attention.assign(rowWidth * std::size_t(rows), 0.0f);
    std::vector<float *> headWeights(static_cast<std::size_t>(w.heads));
    // Where attend() writes row r's weights of layer l: `first` floats into the row, then a block per head.
    const auto weightsOf = [&](int r, int l, std::size_t first, int columns) -> float *const * {
        if (!recordAttention)
            return nullptr;
        for (int h = 0; h < w.heads; ++h)
            headWeights[std::size_t(h)] = result.attention.data() + std::size_t(r) * rowWidth + first +
                                          (std::size_t(l) * w.heads + std::size_t(h)) * columns;
        return headWeights.data();
    };

    Sublayers sublayers(d, w.preNorm);
    std::vector<float> projected, mixed(static_cast<std::size_t>(rows) * d);
    for (int l = 0; l < layers; ++l) {
        const Layer &layer = w.decoder[std::size_t(l)];
        sublayers.run(x, rows, layer.norm1, [&](const float *in, float *out) {
            if (inputs)
                inputs->decoderSelf[std::size_t(l)].insert(inputs->decoderSelf[std::size_t(l)].end(), in, in + d);
            projected.resize(std::size_t(rows) * 3 * d);
            apply(layer.self.in, in, rows, projected.data());
            for (int r = 0; r < rows; ++r) {
                const float *row = projected.data() + std::size_t(r) * 3 * d;
                std::vector<float> &cachedKeys = state.selfKeys[std::size_t(r)][std::size_t(l)];
                std::vector<float> &cachedValues = state.selfValues[std::size_t(r)][std::size_t(l)];
                cachedKeys.insert(cachedKeys.end(), row + d, row + 2 * d);
                cachedValues.insert(cachedValues.end(), row + 2 * d, row + 3 * d);
                attend({row, 3 * d}, {cachedKeys.data(), d}, {cachedValues.data(), d}, 1, keys, w.heads, headSize,
                       mixed.data() + std::size_t(r) * d, weightsOf(r, l, crossWidth, keys));
            }
            apply(layer.self.out, mixed.data(), rows, out);
        });
        sublayers.run(x, rows, layer.norm2, [&](const float *in, float *out) {
            if (inputs)
                inputs->crossQueries[std::size_t(l)].insert(inputs->crossQueries[std::size_t(l)].end(), in, in + d);
            projected.resize(std::size_t(rows) * d);
            apply(layer.cross.in, in, rows, projected.data(), 0, d);
            const float *keysValues = state.crossKeysValues[std::size_t(l)].data();
            for (int r = 0; r < rows; ++r)
                attend({projected.data() + std::size_t(r) * d, d}, {keysValues, 2 * d}, {keysValues + d, 2 * d}, 1,
                       sourceLength, w.heads, headSize, mixed.data() + std::size_t(r) * d,
                       weightsOf(r, l, 0, sourceLength));
            apply(layer.cross.out, mixed.data(), rows, out);
        });
        sublayers.feedForward(x, rows, layer, layer.norm3);
    }
    if (w.preNorm)
        layerNorm(w.decoderNorm, x.data(), rows, d, x.data());
    result.logits.resize(std::size_t(rows) * w.output.out);
    apply(w.output, x.data(), rows, result.logits.data());
    state.steps += 1;
    return result;
}

void TransformerInference::unpackAttention(const std::vector<float> &rows, int steps, int sourceLength,
                                           DecodedIds &into) const
{
    const int layers = this->layers();
    const int heads = m_weights->heads;
    into.decoderSelf = emptyAttention(layers, heads);
    into.cross = emptyAttention(layers, heads);
    into.decoderSelf.rows = into.decoderSelf.columns = into.cross.rows = steps;
    into.cross.columns = sourceLength;
    for (int l = 0; l < layers; ++l)
        for (int h = 0; h < heads; ++h) {
            into.decoderSelf.weights[std::size_t(l)][std::size_t(h)].assign(std::size_t(steps) * steps, 0.0f);
            into.cross.weights[std::size_t(l)][std::size_t(h)].reserve(std::size_t(steps) * sourceLength);
        }
    std::size_t read = 0;
    for (int t = 0; t < steps; ++t) {
        if (read + std::size_t(layers) * heads * (sourceLength + t + 1) > rows.size())
            throw std::logic_error("unpackAttention: fewer weights than " + std::to_string(steps) + " steps hold");
        for (auto &layer : into.cross.weights)
            for (auto &head : layer) {
                const auto first = rows.begin() + std::ptrdiff_t(read);
                head.insert(head.end(), first, first + sourceLength);
                read += std::size_t(sourceLength);
            }
        // Row t of the self-attention holds t + 1 weights; the rest of the row stays 0.
        for (auto &layer : into.decoderSelf.weights)
            for (auto &head : layer) {
                std::copy_n(rows.begin() + std::ptrdiff_t(read), t + 1, head.begin() + std::ptrdiff_t(t) * steps);
                read += std::size_t(t) + 1;
            }
    }
}

DecodedIds TransformerInference::decode(const std::vector<int> &sourceIds, int maxSteps, bool recordAttention) const
{
    DecodingState state = start(sourceIds, recordAttention);
    DecodedIds decoded;
    std::vector<float> attention;
    int previous = Vocabulary::kSos;
    for (int t = 0; t < maxSteps; ++t) {
        const DecodingStep next = step(state, {0}, {previous}, recordAttention);
        previous = int(std::max_element(next.logits.begin(), next.logits.end()) - next.logits.begin());
        attention.insert(attention.end(), next.attention.begin(), next.attention.end());
        decoded.output.push_back(previous);
        if (previous == Vocabulary::kEos)
            break;
    }
    decoded.encoderSelf = std::move(state.encoderSelf);
    if (recordAttention)
        unpackAttention(attention, int(decoded.output.size()), state.sourceLength, decoded);
    return decoded;
}

DecodedIds TransformerInference::teacherForced(const std::vector<int> &sourceIds, const std::vector<int> &outputIds,
                                               AttentionInputs &inputs) const
{
    const int vocabularySize = int(m_weights->targetEmbedding.size()) / m_weights->width;
    for (const std::vector<int> *ids : {&sourceIds, &outputIds})
        for (int id : *ids)
            if (id < 0 || id >= vocabularySize)
                throw std::invalid_argument("no token " + std::to_string(id) + " in a vocabulary of " +
                                            std::to_string(vocabularySize));
    inputs = {};
    DecodingState state = start(sourceIds, true, &inputs);
    DecodedIds decoded;
    std::vector<float> attention;
    int previous = Vocabulary::kSos;
    for (int id : outputIds) {
        const DecodingStep next = step(state, {0}, {previous}, true, &inputs);
        decoded.output.push_back(int(std::max_element(next.logits.begin(), next.logits.end()) - next.logits.begin()));
        attention.insert(attention.end(), next.attention.begin(), next.attention.end());
        previous = id;
    }
    decoded.encoderSelf = std::move(state.encoderSelf);
    unpackAttention(attention, int(decoded.output.size()), state.sourceLength, decoded);
    return decoded;
}

bool TransformerInference::preNorm() const
{
    return m_weights->preNorm;
}

HeadProjections TransformerInference::headProjections(TransformerAttentionKind kind, int layer, int head) const
{
    const Weights &w = *m_weights;
    const std::vector<floatlayers::Layer> &stack = kind == TransformerAttentionKind::EncoderSelf ? w.encoder : w.decoder;
    if (layer < 0 || layer >= int(stack.size()) || head < 0 || head >= w.heads)
        throw std::invalid_argument("no head " + std::to_string(head + 1) + " in layer " + std::to_string(layer + 1) +
                                    " of a model of " + std::to_string(stack.size()) + " layers and " +
                                    std::to_string(w.heads) + " heads");
    const floatlayers::Linear &in = (kind == TransformerAttentionKind::Cross ? stack[std::size_t(layer)].cross
                                                                             : stack[std::size_t(layer)].self)
                                        .in;
    HeadProjections p;
    p.modelSize = w.width;
    p.headSize = w.width / w.heads;
    // The packed projection's output columns: the queries', keys' and values' in turn, each head's
    // d_k of them side by side.
    const auto part = [&](int which, std::vector<float> &weight, std::vector<float> &bias) {
        const int first = which * w.width + head * p.headSize;
        for (int i = 0; i < w.width; ++i)
            for (int c = 0; c < p.headSize; ++c)
                weight.push_back(in.transposed[std::size_t(i) * in.out + std::size_t(first + c)]);
        bias.assign(in.bias.begin() + first, in.bias.begin() + first + p.headSize);
    };
    part(0, p.wq, p.bq);
    part(1, p.wk, p.bk);
    part(2, p.wv, p.bv);
    return p;
}
