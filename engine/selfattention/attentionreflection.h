#pragma once

#include "engine/selfattention/matrix.h"

#include <vector>

// The self-attention exercise's reflection questions answered from one weight matrix (rows are
// queries and sum to 1): which word each word attends to most, which word's attention is most
// concentrated, and how far attention is from symmetric.
struct AttentionReflection {
    std::vector<int> strongestKey;  // per query: the key with the largest weight (the first of ties)
    std::vector<double> entropy;    // per query, in nats; ln(words) is uniform attention
    int mostFocused = -1;           // the query with the lowest entropy
    double asymmetry = 0;           // ‖A − Aᵀ‖, Frobenius norm
    int asymmetricQuery = -1;       // the pair (i, j) with the largest |a_ij − a_ji|, a_ij the larger;
    int asymmetricKey = -1;         // -1 for a single word
};

// Throws std::invalid_argument unless `weights` is square and has at least one row.
AttentionReflection reflectOn(const Matrix &weights);

// −Σ p ln p over one row of weights.
double entropyNats(const Matrix &weights, int row);
