#pragma once

// One negative-sampling step for input vectors that share their targets, the batched form of
// Intel's pWord2Vec: the `inputCount` input vectors h_i (a centre's context words in skip-gram, or
// CBOW's one mean of them) each against the same `targetCount` output vectors u_j, the first the
// true word (label 1), the rest noise (label 0):
//   L = sum_i [ -log s(u_0 . h_i) - sum_{j>0} log s(-u_j . h_i) ],   s the logistic function.
// The hand-written gradient: with g_ij = alpha * (label_j - s(u_j . h_i)), writes
//   inputSteps  = g U     (inputCount x dimensions, row-major),  = -alpha dL/dH
//   outputSteps = g^T H   (targetCount x dimensions, row-major), = -alpha dL/dU
// both from the vectors as given (rows may repeat: a word twice in a window); the caller adds
// them with addRows. Returns L when `withLoss`, else 0 (the loss costs a log per logit).
double sgnsStep(const float *const *inputs, int inputCount, const float *const *outputs, int targetCount,
                int dimensions, float alpha, float *inputSteps, float *outputSteps, bool withLoss);

// The most inputs or targets one sgnsStep takes (a window of 20 each side; 50 noise words + 1).
constexpr int kMaxSgnsRows = 64;

// rows[r] += steps[r * stepStride ...]: a stride of 0 adds one step to every row (CBOW's context).
void addRows(float *const *rows, int rowCount, const float *steps, int stepStride, int dimensions);

// mean = the mean of the rows.
void meanOfRows(const float *const *rows, int rowCount, int dimensions, float *mean);
