#pragma once

#include "engine/core/embeddingtable.h"

#include <string>
#include <vector>

// <PAD>, <SOS>, <EOS>, <UNK> and the like: trained differently from words, or not at all.
bool isSpecialToken(const std::string &word);

// One word's place on the embedding map.
struct ProjectedWord {
    std::string word;
    double x = 0;          // along PC1
    double y = 0;          // along PC2
    bool special = false;  // a special token: drawn apart, never a neighbour
    bool fitted = false;   // its vector took part in fitting the axes
};

// A table's word vectors on their first two principal components.
struct EmbeddingProjection {
    std::vector<ProjectedWord> words;      // in table order
    int components = 0;                    // 2, or fewer when the vectors have fewer dimensions
    double explainedVariance[2] = {0, 0};  // share of the fitted vectors' variance on PC1, PC2
};

struct WordNeighbour {
    int index = -1;         // row in the table
    double similarity = 0;  // cosine, -1..1; 0 against a zero vector
};

// Fits the axes to the words, leaving special tokens out (a few outliers would take a component)
// unless fewer than two words remain, then places every row. The axes' signs are fixed, so a
// refresh with slightly changed vectors does not mirror the map. Throws std::invalid_argument
// when the table is inconsistent (values not words x dimensions, or no dimensions).
EmbeddingProjection projectEmbeddings2d(const EmbeddingTable &table);

// The `count` words most similar to row `index` by cosine similarity in the full space, best
// first (ties in table order); the word itself and special tokens are left out. Throws
// std::invalid_argument for an index out of range or an inconsistent table.
std::vector<WordNeighbour> nearestWords(const EmbeddingTable &table, int index, int count);
