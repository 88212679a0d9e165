#include "engine/word2vec/sgnsupdate.h"

#include "engine/fast/fastmath.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

// The kernels are built for AVX2 and AVX-512 too and picked at load time by what the CPU
// has: the engine is compiled for plain x86-64. `omp simd` (no threads) lets them vectorise.
#define WORD2VEC_KERNEL __attribute__((target_clones("avx512f", "avx2", "default")))

namespace {

constexpr int kLanes = 16;

// A dot product kept in 16 partial sums that are added pairwise at the end: `omp simd reduction`
// ends in a chain of 16 dependent scalar adds, which cost as much as the products. Inlined into
// each clone of the kernels, so it is built for their instruction sets.
inline float dot(const float *__restrict a, const float *__restrict b, int n)
{
    float partial[kLanes] = {};
    int d = 0;
    for (; d + kLanes <= n; d += kLanes) {
#pragma omp simd
        for (int k = 0; k < kLanes; ++k)
            partial[k] += a[d + k] * b[d + k];
    }
    for (int k = 0; d + k < n; ++k)
        partial[k] += a[d + k] * b[d + k];
    for (int width = kLanes / 2; width > 0; width /= 2) {
#pragma omp simd
        for (int k = 0; k < width; ++k)
            partial[k] += partial[k + width];
    }
    return partial[0];
}

}

// Targets are nearly always distinct: then every logit is taken before any row moves (the
// independent dot products overlap), which is the same as taking them in turn. A target that
// repeats (a noise word drawn twice) needs the order, and gets it.
WORD2VEC_KERNEL double sgnsStep(const float *__restrict input, float *const *outputs, int targetCount, int dimensions,
                                float alpha, float *__restrict inputStep, bool withLoss)
{
    bool distinct = true;
    for (int j = 1; j < targetCount && distinct; ++j)
        for (int i = 0; i < j; ++i)
            distinct = distinct && outputs[i] != outputs[j];
    float logits[kMaxSgnsRows];
    if (distinct)
        for (int j = 0; j < targetCount; ++j)
            logits[j] = dot(input, outputs[j], dimensions);
    std::fill(inputStep, inputStep + dimensions, 0.0f);
    for (int j = 0; j < targetCount; ++j) {
        float *__restrict output = outputs[j];
        if (!distinct)
            logits[j] = dot(input, output, dimensions);
        const float g = alpha * ((j == 0 ? 1.0f : 0.0f) - sigmoid(logits[j]));
#pragma omp simd
        for (int d = 0; d < dimensions; ++d) {
            inputStep[d] += g * output[d];
            output[d] += g * input[d];
        }
    }
    double loss = 0;
    if (withLoss)
        for (int j = 0; j < targetCount; ++j) {
            // -log s(x) for the true word, -log s(-x) for noise: softplus of the signed logit.
            const float x = j == 0 ? -logits[j] : logits[j];
            loss += std::max(x, 0.0f) + std::log1p(std::exp(-std::fabs(x)));
        }
    return loss;
}

WORD2VEC_KERNEL void addRows(float *const *rows, int rowCount, const float *steps, int stepStride, int dimensions)
{
    for (int r = 0; r < rowCount; ++r) {
        float *row = rows[r];
        const float *step = steps + r * stepStride;
#pragma omp simd
        for (int d = 0; d < dimensions; ++d)
            row[d] += step[d];
    }
}

WORD2VEC_KERNEL void meanOfRows(const float *const *rows, int rowCount, int dimensions, float *mean)
{
    std::fill(mean, mean + dimensions, 0.0f);
    for (int r = 0; r < rowCount; ++r) {
        const float *row = rows[r];
#pragma omp simd
        for (int d = 0; d < dimensions; ++d)
            mean[d] += row[d];
    }
    const float inverse = 1.0f / float(rowCount);
#pragma omp simd
    for (int d = 0; d < dimensions; ++d)
        mean[d] *= inverse;
}

PaddedRows::PaddedRows(int64_t rows, int width)
    : m_rows(std::max<int64_t>(rows, 0)), m_width(std::max(width, 0)), m_stride((m_width + kLanes - 1) / kLanes * kLanes)
{
    m_storage.assign(size_t(m_rows) * size_t(m_stride) + kLanes, 0.0f);
    const auto address = reinterpret_cast<std::uintptr_t>(m_storage.data());
    m_first = m_storage.data() + (64 - address % 64) % 64 / sizeof(float);
}

std::vector<float> PaddedRows::unpadded() const
{
    std::vector<float> values(size_t(m_rows) * size_t(m_width));
    for (int64_t r = 0; r < m_rows; ++r)
        std::copy_n(row(r), m_width, values.begin() + r * m_width);
    return values;
}
