#pragma once

#include <cstdint>
#include <string>
#include <vector>

// Word vectors as plain numbers: what training produces and what a word2vec text file holds.
struct WordVectors {
    std::vector<std::string> words;
    int dimensions = 0;
    std::vector<float> values;    // words x dimensions, row-major
    std::vector<int64_t> counts;  // per word when known (training), else empty

    int size() const { return int(words.size()); }
    int index(const std::string &word) const;  // -1 when absent (linear; see VectorIndex for many)
};

// The word2vec text format: a "V D" header, then "word v1 ... vD" per line, which
// gensim's KeyedVectors.load_word2vec_format reads. Written atomically.
std::string formatWord2VecText(const WordVectors &vectors);
void writeWord2VecText(const std::string &path, const WordVectors &vectors);
// Throws std::invalid_argument naming the line and what is wrong (bad header, wrong count of
// numbers, not a number, repeated word, fewer lines than the header says, binary data).
WordVectors parseWord2VecText(const std::string &text);
WordVectors readWord2VecText(const std::string &path);
