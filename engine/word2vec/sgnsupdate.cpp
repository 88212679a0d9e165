#include "engine/word2vec/sgnsupdate.h"

#include "engine/fast/fastmath.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

// These loops are most of training's time. The engine is compiled for plain x86-64, so each is also
// built for AVX2 and AVX-512 and picked at load time by what the CPU has. `omp simd` (no threads)
// lets the sums vectorise in a fixed order.
#define WORD2VEC_KERNEL __attribute__((target_clones("avx512f", "avx2", "default")))

WORD2VEC_KERNEL double sgnsStep(const float *const *inputs, int inputCount, const float *const *outputs,
                                int targetCount, int dimensions, float alpha, float *inputSteps,
                                float *outputSteps, bool withLoss)
{
    if (inputCount > kMaxSgnsRows || targetCount > kMaxSgnsRows)
        throw std::invalid_argument("sgnsStep takes at most 64 inputs and 64 targets.");
    float logits[kMaxSgnsRows * kMaxSgnsRows];
    float gradient[kMaxSgnsRows * kMaxSgnsRows];
    const int count = inputCount * targetCount;
    for (int i = 0; i < inputCount; ++i) {
        const float *h = inputs[i];
        for (int j = 0; j < targetCount; ++j) {
            const float *u = outputs[j];
            float logit = 0;
#pragma omp simd reduction(+ : logit)
            for (int d = 0; d < dimensions; ++d)
                logit += h[d] * u[d];
            logits[i * targetCount + j] = logit;
        }
    }
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
    for (int i = 0; i < inputCount; ++i) {
        float *step = inputSteps + i * dimensions;
        std::fill(step, step + dimensions, 0.0f);
        for (int j = 0; j < targetCount; ++j) {
            const float g = gradient[i * targetCount + j];
            const float *u = outputs[j];
#pragma omp simd
            for (int d = 0; d < dimensions; ++d)
                step[d] += g * u[d];
        }
    }
    for (int j = 0; j < targetCount; ++j) {
        float *step = outputSteps + j * dimensions;
        std::fill(step, step + dimensions, 0.0f);
        for (int i = 0; i < inputCount; ++i) {
            const float g = gradient[i * targetCount + j];
            const float *h = inputs[i];
#pragma omp simd
            for (int d = 0; d < dimensions; ++d)
                step[d] += g * h[d];
        }
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
