#pragma once

#include "engine/selfattention/matrix.h"

// Self-attention of one sentence with every intermediate kept, so each step can be shown and
// checked by hand: Q = X W_Q, K = X W_K, V = X W_V, scores = Q Kᵀ / √d_k,
// weights = softmax of each scores row (query i's weights over the keys sum to 1),
// output = weights V.
struct ScaledDotProductAttention {
    Matrix x;        // tokens x d_model
    Matrix wq;       // d_model x d_k
    Matrix wk;       // d_model x d_k
    Matrix wv;       // d_model x d_k
    Matrix q;        // tokens x d_k
    Matrix k;        // tokens x d_k
    Matrix v;        // tokens x d_k
    Matrix scores;   // tokens (queries) x tokens (keys)
    Matrix weights;  // tokens (queries) x tokens (keys), rows sum to 1
    Matrix output;   // tokens x d_k

    int tokens() const { return x.rows; }
    int dModel() const { return x.columns; }
    int dK() const { return q.columns; }

    // Throws std::invalid_argument when X has no rows, or the W matrices are not all
    // d_model x d_k with d_k >= 1.
    static ScaledDotProductAttention compute(const Matrix &x, const Matrix &wq, const Matrix &wk, const Matrix &wv);
};

// Softmax of each row. The row maximum is subtracted before exponentiating: the result is the
// same, and large scores cannot overflow exp() into inf/inf = NaN.
Matrix softmaxRows(const Matrix &scores);
