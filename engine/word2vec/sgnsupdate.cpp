#include "engine/word2vec/sgnsupdate.h"

#include "engine/fast/fastmath.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

#include <cblas.h>

// addRows and meanOfRows are built for AVX2 and AVX-512 too and picked at load time by what the CPU
// has: the engine is compiled for plain x86-64. `omp simd` (no threads) lets them vectorise.
#define WORD2VEC_KERNEL __attribute__((target_clones("avx512f", "avx2", "default")))

// The three products go to OpenBLAS, whose small-matrix kernels beat hand-written loops here (the
// loops' 36 dot products each end in a horizontal sum): the rows are gathered into contiguous
// matrices first, in buffers each thread keeps.
double sgnsStep(const float *const *inputs, int inputCount, const float *const *outputs, int targetCount,
                int dimensions, float alpha, float *inputSteps, float *outputSteps, bool withLoss)
{
    if (inputCount > kMaxSgnsRows || targetCount > kMaxSgnsRows)
        throw std::invalid_argument("sgnsStep takes at most 64 inputs and 64 targets.");
    thread_local std::vector<float> h, u;
    h.resize(size_t(inputCount) * size_t(dimensions));
    u.resize(size_t(targetCount) * size_t(dimensions));
    for (int i = 0; i < inputCount; ++i)
        std::copy_n(inputs[i], dimensions, h.data() + i * dimensions);
    for (int j = 0; j < targetCount; ++j)
        std::copy_n(outputs[j], dimensions, u.data() + j * dimensions);

    float logits[kMaxSgnsRows * kMaxSgnsRows];
    float gradient[kMaxSgnsRows * kMaxSgnsRows];
    const int count = inputCount * targetCount;
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, inputCount, targetCount, dimensions, 1.0f, h.data(),
                dimensions, u.data(), dimensions, 0.0f, logits, targetCount);
#pragma omp simd
    for (int n = 0; n < count; ++n)
        gradient[n] = -alpha * sigmoid(logits[n]);
    for (int i = 0; i < inputCount; ++i)
        gradient[i * targetCount] += alpha;  // the true word's label 1
    double loss = 0;
    if (withLoss) {
        for (int n = 0; n < count; ++n) {
            // -log s(x) for the true word, -log s(-x) for noise: softplus of the signed logit.
            const float x = n % targetCount == 0 ? -logits[n] : logits[n];
            loss += std::max(x, 0.0f) + std::log1p(std::exp(-std::fabs(x)));
        }
    }
    // inputSteps = g U, outputSteps = g^T H.
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, inputCount, dimensions, targetCount, 1.0f, gradient,
                targetCount, u.data(), dimensions, 0.0f, inputSteps, dimensions);
    cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, targetCount, dimensions, inputCount, 1.0f, gradient,
                targetCount, h.data(), dimensions, 0.0f, outputSteps, dimensions);
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
