#pragma once

#include "engine/core/attentionhead.h"
#include "engine/core/embeddingtable.h"
#include "engine/selfattention/matrix.h"

#include <cstdint>
#include <string>
#include <vector>

// What the self-attention exercise computes from: one row of X per token, and the projections
// W_Q, W_K, W_V (d_model x d_k). Random values are multiples of 0.1 drawn uniformly from
// [-1, 1] (21 values) with std::mt19937_64, whose output the C++ standard fixes, so a seed gives
// the same numbers everywhere and they stay easy to multiply by hand.
struct SelfAttentionInputs {
    std::vector<std::string> tokens;
    std::vector<bool> known;  // per token; false: not in the vocabulary, its row is <UNK>'s
    Matrix x;                 // tokens x d_model
    Matrix wq;
    Matrix wk;
    Matrix wv;

    // Each distinct word gets its own row, drawn from the seed and the word's text: a repeated
    // word has equal rows, and adding a word or widening d_model leaves the other numbers alone.
    // W_Q, W_K, W_V are drawn in that order from the seed alone.
    static SelfAttentionInputs random(const std::vector<std::string> &tokens, int dModel, int dK, std::uint64_t seed);
    // X rows are the words' rows of `embeddings` (unknown words take the "<UNK>" row, or zeros if
    // there is none); d_model is embeddings.dimensions; W as in random().
    static SelfAttentionInputs fromEmbeddings(const std::vector<std::string> &tokens, const EmbeddingTable &embeddings,
                                              int dK, std::uint64_t seed);
    // A trained head's X and projections, its biases folded in exactly: X gets a last column of 1s
    // and each W a last row holding its bias, so that X W = x W + b row by row and the weights are
    // the head's. Throws std::invalid_argument when the sizes do not fit together.
    static SelfAttentionInputs fromHead(const AttentionHead &head);
    // The table projected onto its first `dimensions` principal components (PCA over all its
    // words), then scaled as a whole so its values spread like the random ones (same root mean
    // square): angles and relative lengths survive, and softmax sees scores of the same size.
    static EmbeddingTable projectEmbeddings(const EmbeddingTable &table, int dimensions);
    // Root mean square of the random values: sqrt(sum over k=-10..10 of (k/10)^2 / 21).
    static double randomRms();
};
