#pragma once

#include <string>
#include <vector>

// One attention head's projections as x W + b reads them: a query row is q = x W_Q + b_Q, a key's
// k = x W_K + b_K, a value's v = x W_V + b_V.
struct HeadProjections {
    int modelSize = 0;              // d_model: the rows of each W
    int headSize = 0;               // d_k: its columns
    std::vector<float> wq, wk, wv;  // d_model x d_k, row-major
    std::vector<float> bq, bk, bv;  // d_k
};

// One head of a trained self-attention layer on one sentence, as plain numbers that another lab can
// recompute its weights from: softmax((X W_Q + b_Q)(X W_K + b_K)ᵀ / √d_k) row by row.
struct AttentionHead {
    std::vector<std::string> tokens;  // one per row of x
    std::vector<float> x;             // tokens x d_model, row-major: the rows the head projects
    HeadProjections projections;
};
