#pragma once

#include <vector>

// Every number behind one weight a_ij of scaled dot-product attention (query i, key j), for
// "Explain this weight": the dot product q_i · k_j term by term, the division by √d_k, the
// softmax over query i's row of scores, and key j's share a_ij v_j of the output o_i. Keys from
// `visibleKeys` on are masked (a decoder's causal mask): their score gets −∞ added, their weight is
// exactly 0.
struct ScaledDotExplanation {
    int query = 0;
    int key = 0;
    int visibleKeys = 0;           // the keys the query may look at: 0 .. visibleKeys − 1
    std::vector<double> q;         // q_i (d_k)
    std::vector<double> k;         // k_j (d_k)
    std::vector<double> products;  // q_i[m] k_j[m], m = 0..d_k-1
    double dot = 0;                // Σ products
    double scale = 1;              // √d_k
    std::vector<double> scores;    // row i of QKᵀ/√d_k, before the mask
    std::vector<double> weights;   // softmax of the row, masked keys left out: row i of the weights
    std::vector<double> value;     // v_j (d_k)
    std::vector<double> share;     // a_ij v_j
    std::vector<double> output;    // o_i = Σ_j a_ij v_j

    double score() const { return scores[std::size_t(key)]; }
    double weight() const { return weights[std::size_t(key)]; }
    bool masked() const { return key >= visibleKeys; }
};

// From q_i (d_k values) and every key's and value's row (keyCount x d_k, row-major): the cell
// (query, key) with keys from `visibleKeys` on masked. Throws std::invalid_argument for sizes that
// do not fit, a key outside the row, or no visible key.
ScaledDotExplanation explainScaledDot(const std::vector<double> &q, const std::vector<double> &keys,
                                      const std::vector<double> &values, int keyCount, int query, int key,
                                      int visibleKeys);
