#include "engine/transformer/transformerinference.h"

#include "engine/core/vocabulary.h"
#include "engine/fast/matrixproduct.h"
#include "engine/transformer/transformernet.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

// The weights as the arithmetic reads them; named, as members of TransformerInference::Weights.
namespace transformerinference {

// A linear layer as the products read it: the weight transposed (in x out, row-major) and the bias.
struct Linear {
    int in = 0;
    int out = 0;
    std::vector<float> transposed;
    std::vector<float> bias;
};

struct Norm {
    std::vector<float> gamma;
    std::vector<float> beta;
};

struct Attention {
    Linear in;  // out = 3d: the queries', keys' and values' projections side by side
    Linear out;
};

struct Layer {
    Attention self;
    Attention cross;  // decoder layers only
    Linear feedForward1;
    Linear feedForward2;
    Norm norm1, norm2, norm3;  // norm3: decoder layers only
};

}  // namespace transformerinference

using namespace transformerinference;

namespace {

constexpr float kLayerNormEps = 1e-5f;  // LibTorch's LayerNorm default

std::vector<float> values(const torch::Tensor &tensor)
{
    const torch::Tensor c = tensor.detach().contiguous();
    return std::vector<float>(c.data_ptr<float>(), c.data_ptr<float>() + c.numel());
}

Linear linearWeights(const torch::Tensor &weight, const torch::Tensor &bias)
{
    return {int(weight.size(1)), int(weight.size(0)), values(weight.t()), values(bias)};
}

Linear linearWeights(torch::nn::Linear &module)
{
    return linearWeights(module->weight, module->bias);
}

Norm normWeights(torch::nn::LayerNorm &module)
{
    return {values(module->weight), values(module->bias)};
}

Attention attentionWeights(MultiHeadAttention &module)
{
    return {linearWeights(module->inProjWeight, module->inProjBias), linearWeights(module->outProj)};
}

// y (rows x count) = x (rows x in) W^T + b over the output columns [first, first + count).
void apply(const Linear &layer, const float *x, int rows, float *y, int first, int count)
{
    for (int r = 0; r < rows; ++r)
        std::copy_n(layer.bias.data() + first, count, y + std::size_t(r) * count);
    matrixProduct(false, false, rows, count, layer.in, 1.0f, x, layer.in, layer.transposed.data() + first, layer.out,
                  1.0f, y, count);
}

void apply(const Linear &layer, const float *x, int rows, float *y)
{
    apply(layer, x, rows, y, 0, layer.out);
}

// In place is fine: a row's statistics are taken before it is written.
void layerNorm(const Norm &norm, const float *x, int rows, int width, float *y)
{
    for (int r = 0; r < rows; ++r) {
        const float *in = x + std::size_t(r) * width;
        float *out = y + std::size_t(r) * width;
        float mean = 0;
        for (int i = 0; i < width; ++i)
            mean += in[i];
        mean /= float(width);
        float variance = 0;
        for (int i = 0; i < width; ++i)
            variance += (in[i] - mean) * (in[i] - mean);
        const float scale = 1.0f / std::sqrt(variance / float(width) + kLayerNormEps);
        for (int i = 0; i < width; ++i)
            out[i] = (in[i] - mean) * scale * norm.gamma[std::size_t(i)] + norm.beta[std::size_t(i)];
    }
}

// Where attend() reads a matrix: rows `stride` floats apart.
struct Rows {
    const float *data;
    int stride;
};

// Per head: out = softmax(q k^T / sqrt(d_k)) v for `queries` queries over `keys` keys, all keys
// visible. out is queries x (heads * d_k); the weights go to weights[head][query * keys + key]
// when given.
void attend(Rows q, Rows k, Rows v, int queries, int keys, int heads, int headSize, float *out,
            std::vector<std::vector<float>> *weights)
{
    const float scale = 1.0f / std::sqrt(float(headSize));
    std::vector<float> w(static_cast<std::size_t>(keys), 0.0f);
    const int width = heads * headSize;
    for (int h = 0; h < heads; ++h)
        for (int i = 0; i < queries; ++i) {
            const float *query = q.data + std::size_t(i) * q.stride + h * headSize;
            float largest = -INFINITY;
            for (int j = 0; j < keys; ++j) {
                const float *key = k.data + std::size_t(j) * k.stride + h * headSize;
                float dot = 0;
                for (int c = 0; c < headSize; ++c)
                    dot += query[c] * key[c];
                w[std::size_t(j)] = dot * scale;
                largest = std::max(largest, w[std::size_t(j)]);
            }
            float sum = 0;
            for (float &x : w) {
                x = std::exp(x - largest);
                sum += x;
            }
            float *mixed = out + std::size_t(i) * width + h * headSize;
            std::fill_n(mixed, headSize, 0.0f);
            for (int j = 0; j < keys; ++j) {
                w[std::size_t(j)] /= sum;
                const float *value = v.data + std::size_t(j) * v.stride + h * headSize;
                for (int c = 0; c < headSize; ++c)
                    mixed[c] += w[std::size_t(j)] * value[c];
            }
            if (weights)
                std::copy(w.begin(), w.end(), (*weights)[std::size_t(h)].begin() + std::size_t(i) * keys);
        }
}

LayeredAttention emptyAttention(int layers, int heads)
{
    LayeredAttention attention;
    attention.weights.assign(std::size_t(layers), std::vector<std::vector<float>>(std::size_t(heads)));
    return attention;
}

}  // namespace

struct TransformerInference::Weights {
    int width = 0;
    int heads = 0;
    int feedForward = 0;
    int maxPositions = 0;
    bool preNorm = true;
    std::vector<float> sourceEmbedding, targetEmbedding, positions;  // rows of `width`
    std::vector<Layer> encoder, decoder;
    Norm encoderNorm, decoderNorm;  // pre-LN only
    Linear output;
};

TransformerInference::TransformerInference(TransformerNetImpl &net)
{
    torch::NoGradGuard noGrad;
    auto w = std::make_unique<Weights>();
    const TransformerConfig &config = net.config();
    w->width = config.modelSize;
    w->heads = config.heads;
    w->feedForward = config.feedForwardSize;
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

DecodedIds TransformerInference::decode(const std::vector<int> &sourceIds, int maxSteps, bool recordAttention) const
{
    return run(sourceIds, maxSteps, recordAttention, nullptr, nullptr);
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
    return run(sourceIds, int(outputIds.size()), true, &outputIds, &inputs);
}

bool TransformerInference::preNorm() const
{
    return m_weights->preNorm;
}

HeadProjections TransformerInference::headProjections(TransformerAttentionKind kind, int layer, int head) const
{
    const Weights &w = *m_weights;
    const std::vector<Layer> &stack = kind == TransformerAttentionKind::EncoderSelf ? w.encoder : w.decoder;
    if (layer < 0 || layer >= int(stack.size()) || head < 0 || head >= w.heads)
        throw std::invalid_argument("no head " + std::to_string(head + 1) + " in layer " + std::to_string(layer + 1) +
                                    " of a model of " + std::to_string(stack.size()) + " layers and " +
                                    std::to_string(w.heads) + " heads");
    const Linear &in = (kind == TransformerAttentionKind::Cross ? stack[std::size_t(layer)].cross
                                                                : stack[std::size_t(layer)].self).in;
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

DecodedIds TransformerInference::run(const std::vector<int> &sourceIds, int maxSteps, bool recordAttention,
                                     const std::vector<int> *forcedOutput, AttentionInputs *inputs) const
{
    const Weights &w = *m_weights;
    const int d = w.width;
    const int headSize = d / w.heads;
    const int sourceLength = int(sourceIds.size());
    const float embeddingScale = std::sqrt(float(d));
    const auto checkPositions = [&](int count) {
        if (count > w.maxPositions)
            throw std::out_of_range("a sequence of " + std::to_string(count) +
                                    " tokens is longer than the model's longest sequence, " +
                                    std::to_string(w.maxPositions));
    };
    const auto embed = [&](const std::vector<float> &table, int id, int position, float *x) {
        for (int c = 0; c < d; ++c)
            x[c] = table[std::size_t(id) * d + c] * embeddingScale + w.positions[std::size_t(position) * d + c];
    };
    // One sublayer with its residual and norm, as residual() in sublayers.h: rows of x in place.
    std::vector<float> normed, change;
    const auto sublayer = [&](std::vector<float> &x, int rows, const Norm &n, const auto &f) {
        normed.resize(x.size());
        change.resize(x.size());
        if (w.preNorm) {
            layerNorm(n, x.data(), rows, d, normed.data());
            f(normed.data(), change.data());
        } else {
            f(x.data(), change.data());
        }
        for (std::size_t i = 0; i < x.size(); ++i)
            x[i] += change[i];
        if (!w.preNorm)
            layerNorm(n, x.data(), rows, d, x.data());
    };
    std::vector<float> hidden;
    const auto feedForward = [&](const Layer &layer, int rows) {
        return [&layer, rows, &hidden](const float *in, float *out) {
            hidden.resize(std::size_t(rows) * layer.feedForward1.out);
            apply(layer.feedForward1, in, rows, hidden.data());
            for (float &h : hidden)
                h = std::max(h, 0.0f);
            apply(layer.feedForward2, hidden.data(), rows, out);
        };
    };

    DecodedIds decoded;
    const int layers = int(w.decoder.size());
    if (recordAttention) {
        decoded.encoderSelf = emptyAttention(int(w.encoder.size()), w.heads);
        decoded.decoderSelf = emptyAttention(layers, w.heads);
        decoded.cross = emptyAttention(layers, w.heads);
    }

    checkPositions(sourceLength);
    std::vector<float> memory(static_cast<std::size_t>(sourceLength) * d);
    std::vector<float> projected, mixed;
    for (int i = 0; i < sourceLength; ++i)
        embed(w.sourceEmbedding, sourceIds[std::size_t(i)], i, memory.data() + std::size_t(i) * d);
    for (std::size_t l = 0; l < w.encoder.size(); ++l) {
        const Layer &layer = w.encoder[l];
        auto *weights = recordAttention ? &decoded.encoderSelf.weights[l] : nullptr;
        if (weights)
            for (auto &head : *weights)
                head.assign(std::size_t(sourceLength) * sourceLength, 0.0f);
        sublayer(memory, sourceLength, layer.norm1, [&](const float *in, float *out) {
            if (inputs)
                inputs->encoderSelf.emplace_back(in, in + std::size_t(sourceLength) * d);
            projected.resize(std::size_t(sourceLength) * 3 * d);
            mixed.resize(std::size_t(sourceLength) * d);
            apply(layer.self.in, in, sourceLength, projected.data());
            attend({projected.data(), 3 * d}, {projected.data() + d, 3 * d}, {projected.data() + 2 * d, 3 * d},
                   sourceLength, sourceLength, w.heads, headSize, mixed.data(), weights);
            apply(layer.self.out, mixed.data(), sourceLength, out);
        });
        sublayer(memory, sourceLength, layer.norm2, feedForward(layer, sourceLength));
    }
    if (w.preNorm)
        layerNorm(w.encoderNorm, memory.data(), sourceLength, d, memory.data());
    if (inputs) {
        inputs->memory = memory;
        inputs->decoderSelf.assign(std::size_t(layers), {});
        inputs->crossQueries.assign(std::size_t(layers), {});
    }
    decoded.encoderSelf.rows = decoded.encoderSelf.columns = recordAttention ? sourceLength : 0;

    // Each decoder layer's cross-attention keys and values of the source (sourceLength x 2d), and
    // its self-attention's of the tokens so far.
    std::vector<std::vector<float>> crossKeysValues(static_cast<std::size_t>(layers));
    std::vector<std::vector<float>> selfKeys(static_cast<std::size_t>(layers));
    std::vector<std::vector<float>> selfValues(static_cast<std::size_t>(layers));
    for (int l = 0; l < layers; ++l) {
        crossKeysValues[std::size_t(l)].resize(std::size_t(sourceLength) * 2 * d);
        apply(w.decoder[std::size_t(l)].cross.in, memory.data(), sourceLength, crossKeysValues[std::size_t(l)].data(), d,
              2 * d);
    }
    // Per layer and head, each step's row of self-attention weights (as long as the step) and of cross.
    std::vector<std::vector<std::vector<float>>> selfRows(static_cast<std::size_t>(layers),
                                                          std::vector<std::vector<float>>(std::size_t(w.heads)));
    std::vector<float> x(static_cast<std::size_t>(d));
    std::vector<float> logits(static_cast<std::size_t>(w.output.out));
    std::vector<std::vector<float>> stepWeights(static_cast<std::size_t>(w.heads));
    int previous = Vocabulary::kSos;
    for (int step = 0; step < maxSteps; ++step) {
        checkPositions(step + 1);
        embed(w.targetEmbedding, previous, step, x.data());
        for (int l = 0; l < layers; ++l) {
            const Layer &layer = w.decoder[std::size_t(l)];
            std::vector<float> &cachedKeys = selfKeys[std::size_t(l)];
            std::vector<float> &cachedValues = selfValues[std::size_t(l)];
            sublayer(x, 1, layer.norm1, [&](const float *in, float *out) {
                if (inputs)
                    inputs->decoderSelf[std::size_t(l)].insert(inputs->decoderSelf[std::size_t(l)].end(), in, in + d);
                projected.resize(std::size_t(3) * d);
                mixed.resize(std::size_t(d));
                apply(layer.self.in, in, 1, projected.data());
                cachedKeys.insert(cachedKeys.end(), projected.begin() + d, projected.begin() + 2 * d);
                cachedValues.insert(cachedValues.end(), projected.begin() + 2 * d, projected.end());
                for (auto &head : stepWeights)
                    head.assign(std::size_t(step) + 1, 0.0f);
                attend({projected.data(), 3 * d}, {cachedKeys.data(), d}, {cachedValues.data(), d}, 1, step + 1, w.heads, headSize,
                       mixed.data(), recordAttention ? &stepWeights : nullptr);
                apply(layer.self.out, mixed.data(), 1, out);
            });
            if (recordAttention)
                for (int h = 0; h < w.heads; ++h)
                    selfRows[std::size_t(l)][std::size_t(h)].insert(selfRows[std::size_t(l)][std::size_t(h)].end(),
                                                                    stepWeights[std::size_t(h)].begin(),
                                                                    stepWeights[std::size_t(h)].end());
            sublayer(x, 1, layer.norm2, [&](const float *in, float *out) {
                if (inputs)
                    inputs->crossQueries[std::size_t(l)].insert(inputs->crossQueries[std::size_t(l)].end(), in, in + d);
                projected.resize(std::size_t(d));
                apply(layer.cross.in, in, 1, projected.data(), 0, d);
                for (auto &head : stepWeights)
                    head.assign(std::size_t(sourceLength), 0.0f);
                const float *keysValues = crossKeysValues[std::size_t(l)].data();
                attend({projected.data(), d}, {keysValues, 2 * d}, {keysValues + d, 2 * d}, 1, sourceLength, w.heads,
                       headSize, mixed.data(), recordAttention ? &stepWeights : nullptr);
                apply(layer.cross.out, mixed.data(), 1, out);
            });
            if (recordAttention)
                for (int h = 0; h < w.heads; ++h) {
                    auto &rows = decoded.cross.weights[std::size_t(l)][std::size_t(h)];
                    rows.insert(rows.end(), stepWeights[std::size_t(h)].begin(), stepWeights[std::size_t(h)].end());
                }
            sublayer(x, 1, layer.norm3, feedForward(layer, 1));
        }
        if (w.preNorm)
            layerNorm(w.decoderNorm, x.data(), 1, d, x.data());
        apply(w.output, x.data(), 1, logits.data());
        const int chosen = int(std::max_element(logits.begin(), logits.end()) - logits.begin());
        decoded.output.push_back(chosen);
        if (forcedOutput) {
            previous = (*forcedOutput)[std::size_t(step)];
            continue;
        }
        previous = chosen;
        if (previous == Vocabulary::kEos)
            break;
    }

    if (recordAttention) {
        const int steps = int(decoded.output.size());
        decoded.decoderSelf.rows = decoded.decoderSelf.columns = steps;
        decoded.cross.rows = steps;
        decoded.cross.columns = sourceLength;
        // Row t of the self-attention holds t + 1 weights; the rest of the row is 0.
        for (int l = 0; l < layers; ++l)
            for (int h = 0; h < w.heads; ++h) {
                const std::vector<float> &triangle = selfRows[std::size_t(l)][std::size_t(h)];
                std::vector<float> &square = decoded.decoderSelf.weights[std::size_t(l)][std::size_t(h)];
                square.assign(std::size_t(steps) * steps, 0.0f);
                for (int t = 0, read = 0; t < steps; read += t + 1, ++t)
                    std::copy_n(triangle.begin() + read, t + 1, square.begin() + std::size_t(t) * steps);
            }
    }
    return decoded;
}
