#include "engine/transformer/attentionrollout.h"

#include <stdexcept>
#include <string>

namespace {

// Row-major matrices in double: the products of many layers add up rounding.
using Shares = std::vector<double>;

void checkWeights(const LayeredAttention &attention, const std::string &name)
{
    const std::size_t size = std::size_t(attention.rows) * std::size_t(attention.columns);
    for (std::size_t l = 0; l < attention.weights.size(); ++l) {
        if (attention.weights[l].empty())
            throw std::invalid_argument(name + " attention: layer " + std::to_string(l + 1) + " has no heads");
        for (std::size_t h = 0; h < attention.weights[l].size(); ++h)
            if (attention.weights[l][h].size() != size)
                throw std::invalid_argument(name + " attention: layer " + std::to_string(l + 1) + ", head " +
                                            std::to_string(h + 1) + " holds " +
                                            std::to_string(attention.weights[l][h].size()) + " weights for a " +
                                            std::to_string(attention.rows) + " x " +
                                            std::to_string(attention.columns) + " matrix");
    }
}

void checkSquare(const LayeredAttention &attention, const std::string &name)
{
    if (attention.rows != attention.columns)
        throw std::invalid_argument(name + " attention is " + std::to_string(attention.rows) + " x " +
                                    std::to_string(attention.columns) + ", not square");
    checkWeights(attention, name);
}

Shares headMean(const std::vector<std::vector<float>> &heads)
{
    Shares mean(heads.front().size(), 0.0);
    for (const std::vector<float> &head : heads)
        for (std::size_t i = 0; i < mean.size(); ++i)
            mean[i] += head[i];
    for (double &x : mean)
        x /= double(heads.size());
    return mean;
}

// 0.5 A + 0.5 I for the residual connection, each row renormalised to sum to 1.
Shares withResidual(Shares a, int n)
{
    for (int r = 0; r < n; ++r) {
        double *row = a.data() + std::size_t(r) * n;
        double sum = 0;
        for (int c = 0; c < n; ++c) {
            row[c] = 0.5 * row[c] + (r == c ? 0.5 : 0.0);
            sum += row[c];
        }
        for (int c = 0; c < n; ++c)
            row[c] /= sum;  // sum >= 0.5: the diagonal's half
    }
    return a;
}

// (n x m) times (m x k).
Shares sharesProduct(const Shares &a, const Shares &b, int n, int m, int k)
{
    Shares c(std::size_t(n) * std::size_t(k), 0.0);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < m; ++j) {
            const double x = a[std::size_t(i) * m + j];
            for (int l = 0; l < k; ++l)
                c[std::size_t(i) * k + l] += x * b[std::size_t(j) * k + l];
        }
    return c;
}

// A'_L ... A'_1 of a checked square attention: the identity without layers.
Shares rollout(const LayeredAttention &attention)
{
    const int n = attention.rows;
    Shares product(std::size_t(n) * std::size_t(n), 0.0);
    for (int i = 0; i < n; ++i)
        product[std::size_t(i) * n + i] = 1.0;
    for (const auto &layer : attention.weights)
        product = sharesProduct(withResidual(headMean(layer), n), product, n, n, n);
    return product;
}

std::vector<float> toFloat(const Shares &m)
{
    return std::vector<float>(m.begin(), m.end());
}

}  // namespace

RolloutMatrix layerHeadMean(const LayeredAttention &attention, int layer)
{
    checkWeights(attention, "averaged");
    if (layer < 0 || layer >= int(attention.weights.size()))
        throw std::invalid_argument("no layer " + std::to_string(layer + 1) + " in an attention of " +
                                    std::to_string(attention.weights.size()) + " layers");
    return {attention.rows, attention.columns, toFloat(headMean(attention.weights[std::size_t(layer)]))};
}

RolloutMatrix selfAttentionRollout(const LayeredAttention &attention)
{
    checkSquare(attention, "self");
    return {attention.rows, attention.columns, toFloat(rollout(attention))};
}

RolloutMatrix crossAttentionRollout(const LayeredAttention &encoderSelf, const LayeredAttention &decoderSelf,
                                    const LayeredAttention &cross)
{
    checkSquare(encoderSelf, "encoder self");
    checkSquare(decoderSelf, "decoder self");
    checkWeights(cross, "cross");
    const int outputs = cross.rows;
    const int sources = cross.columns;
    if (decoderSelf.rows != outputs || encoderSelf.rows != sources)
        throw std::invalid_argument("cross attention of " + std::to_string(outputs) + " x " + std::to_string(sources) +
                                    " does not fit a decoder of " + std::to_string(decoderSelf.rows) +
                                    " positions and an encoder of " + std::to_string(encoderSelf.rows));
    if (decoderSelf.weights.size() != cross.weights.size())
        throw std::invalid_argument("the decoder's self-attention has " + std::to_string(decoderSelf.weights.size()) +
                                    " layers, its cross-attention " + std::to_string(cross.weights.size()));

    const Shares encoder = rollout(encoderSelf);
    // The source part of M; its target part, whose rows make up the rest of 1, is not needed.
    Shares fromSource(std::size_t(outputs) * std::size_t(sources), 0.0);
    for (std::size_t l = 0; l < cross.weights.size(); ++l) {
        const Shares self = withResidual(headMean(decoderSelf.weights[l]), outputs);
        fromSource = sharesProduct(self, fromSource, outputs, outputs, sources);
        const Shares added = sharesProduct(headMean(cross.weights[l]), encoder, outputs, sources, sources);
        for (std::size_t i = 0; i < fromSource.size(); ++i)
            fromSource[i] = 0.5 * fromSource[i] + 0.5 * added[i];
    }

    for (int r = 0; r < outputs; ++r) {
        double *row = fromSource.data() + std::size_t(r) * sources;
        double share = 0;
        for (int c = 0; c < sources; ++c)
            share += row[c];
        for (int c = 0; c < sources; ++c)
            row[c] = share > 0 ? row[c] / share : 0.0;  // 0 only without decoder layers
    }
    return {outputs, sources, toFloat(fromSource)};
}
