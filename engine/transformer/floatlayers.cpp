#include "engine/transformer/floatlayers.h"

#include "engine/fast/matrixproduct.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace floatlayers {

namespace {

constexpr float kLayerNormEps = 1e-5f;  // LibTorch's LayerNorm default

}  // namespace

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

void attend(Rows q, Rows k, Rows v, int queries, int keys, int heads, int headSize, float *out,
            float *const *headWeights)
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
            if (headWeights)
                std::copy(w.begin(), w.end(), headWeights[h] + std::size_t(i) * keys);
        }
}

void embedToken(const std::vector<float> &table, const std::vector<float> &positions, int width, int id, int position,
                float *x)
{
    const int tableRows = int(table.size()) / width;
    if (id < 0 || id >= tableRows)
        throw std::out_of_range("token id " + std::to_string(id) + " is outside the vocabulary of " +
                                std::to_string(tableRows));
    const float scale = std::sqrt(float(width));
    for (int c = 0; c < width; ++c)
        x[c] = table[std::size_t(id) * width + c] * scale + positions[std::size_t(position) * width + c];
}

void Sublayers::feedForward(std::vector<float> &x, int rows, const Layer &layer, const Norm &norm)
{
    run(x, rows, norm, [&](const float *in, float *out) {
        m_hidden.resize(std::size_t(rows) * layer.feedForward1.out);
        apply(layer.feedForward1, in, rows, m_hidden.data());
        for (float &h : m_hidden)
            h = std::max(h, 0.0f);
        apply(layer.feedForward2, m_hidden.data(), rows, out);
    });
}

}  // namespace floatlayers
