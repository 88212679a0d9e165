#pragma once

#include <cstdint>
#include <vector>

// One negative-sampling step for one input vector h (a context word's in skip-gram, or CBOW's mean
// of them) against `targetCount` output vectors u_j, the first the true word (label 1), the rest
// noise (label 0):
//   L = -log s(u_0 . h) - sum_{j>0} log s(-u_j . h),   s the logistic function,
// taken in order as word2vec.c and gensim take it: with g_j = alpha * (label_j - s(u_j . h)) from
// u_j as it is when its turn comes, u_j moves at once by g_j h, and the step for h, sum_j g_j u_j
// (each u_j before its move), is written to `inputStep` for the caller to add. With distinct
// targets that is one SGD step: inputStep = -alpha dL/dh, and each u_j moves by -alpha dL/du_j.
// A target listed twice moves twice, the second time from where the first left it.
// Returns L when `withLoss`, else 0 (the loss costs a log per logit).
double sgnsStep(const float *input, float *const *outputs, int targetCount, int dimensions, float alpha,
                float *inputStep, bool withLoss);

// The most context words or targets one window has (a window of 20 each side; 50 noise words + 1).
constexpr int kMaxSgnsRows = 64;

// rows[r] += steps[r * stepStride ...]: a stride of 0 adds one step to every row (CBOW's context).
void addRows(float *const *rows, int rowCount, const float *steps, int stepStride, int dimensions);

// mean = the mean of the rows.
void meanOfRows(const float *const *rows, int rowCount, int dimensions, float *mean);

// Vectors laid out as the kernels want them: each row padded with zeros to a whole number of
// 64-byte cache lines and starting on one, so the kernels run over the padded width. A row that
// straddles two lines makes every vector load and store touch both (at dimension 100, three rows
// in four did), which cost the training a third of its speed.
class PaddedRows
{
public:
    PaddedRows(int64_t rows, int width);
    PaddedRows(const PaddedRows &) = delete;
    PaddedRows &operator=(const PaddedRows &) = delete;

    float *row(int64_t r) { return m_first + r * m_stride; }
    const float *row(int64_t r) const { return m_first + r * m_stride; }
    int64_t rows() const { return m_rows; }
    int width() const { return m_width; }    // the values of a row
    int stride() const { return m_stride; }  // the width padded: what the kernels run over
    // The rows without their padding, one after another.
    std::vector<float> unpadded() const;

private:
    std::vector<float> m_storage;
    float *m_first;
    int64_t m_rows;
    int m_width;
    int m_stride;
};
