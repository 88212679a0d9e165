#pragma once

#include <cstdint>

// One negative-sampling update, the hand-written gradient of
//   L = -log s(u_o . h) - sum_k log s(-u_k . h),   s the logistic function,
// for an input vector h (a centre word's v, or the mean of CBOW's context vectors) against
// `targets` output vectors, the first the true word (label 1), the rest noise (label 0).
// Each target's u moves by alpha * (label - s(u . h)) * h, and the summed gradient for h is
// added to `inputGradient` (which the caller applies). Returns the loss.
double sgnsUpdate(const float *input, float *output, const int32_t *targets, int targetCount,
                  int dimensions, float alpha, float *inputGradient);
