#pragma once

#include <cstdint>

// to[k] += from[k] for k < n, vectorised for the machine's widest registers. The arrays must not
// overlap.
void addInPlace(float *to, const float *from, int64_t n);

// The sum of values[k]² for k < n, accumulated in double.
double sumOfSquares(const float *values, int64_t n);

// sums = the column sums of a rows x width matrix.
void columnSums(const float *matrix, int64_t rows, int64_t width, float *sums);
