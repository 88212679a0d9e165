#pragma once

#include "engine/selfattention/scaleddotproductattention.h"

#include <vector>

// Every number behind one self-attention weight a_ij (query word i, key word j), for the
// explorer's "Explain this weight": the dot product q_i · k_j term by term, divided by √d_k, the
// softmax over query i's row of scores, and key j's share a_ij v_j of the output row o_i.
struct SelfAttentionExplanation {
    int query = 0;
    int key = 0;
    std::vector<double> q;         // q_i (d_k)
    std::vector<double> k;         // k_j (d_k)
    std::vector<double> products;  // q_i[m] k_j[m], m = 0..d_k-1
    double dot = 0;                // Σ products
    double scale = 1;              // √d_k
    std::vector<double> scores;    // row i of QKᵀ/√d_k, recomputed from Q and K
    std::vector<double> weights;   // softmax(scores): row i of the weights
    std::vector<double> value;     // v_j (d_k)
    std::vector<double> share;     // a_ij v_j
    std::vector<double> output;    // o_i = Σ_j a_ij v_j

    double score() const { return scores[std::size_t(key)]; }
    double weight() const { return weights[std::size_t(key)]; }
};

// From the explorer's own Q, K and V. Throws std::invalid_argument for a cell outside the matrix.
SelfAttentionExplanation explainSelfAttention(const ScaledDotProductAttention &attention, int query, int key);
