#include "engine/fast/vectorsum.h"

#include "engine/fast/vectorclones.h"

#include <algorithm>

VECTOR_CLONES
void addInPlace(float *__restrict to, const float *__restrict from, int64_t n)
{
    for (int64_t k = 0; k < n; ++k)
        to[k] += from[k];
}

VECTOR_CLONES
double sumOfSquares(const float *__restrict values, int64_t n)
{
    // Lanes summed apart, so that the loop vectorises without reordering any one sum.
    constexpr int kLanes = 16;
    double lanes[kLanes] = {};
    int64_t k = 0;
    for (; k + kLanes <= n; k += kLanes)
        for (int l = 0; l < kLanes; ++l)
            lanes[l] += double(values[k + l]) * double(values[k + l]);
    for (; k < n; ++k)
        lanes[0] += double(values[k]) * double(values[k]);
    double total = 0;
    for (double lane : lanes)
        total += lane;
    return total;
}

void columnSums(const float *matrix, int64_t rows, int64_t width, float *sums)
{
    std::fill(sums, sums + width, 0.0f);
    for (int64_t r = 0; r < rows; ++r)
        addInPlace(sums, matrix + r * width, width);
}
