#pragma once

#include <cstdint>
#include <string>
#include <vector>

// Word vectors as plain numbers: what training produces and what a word2vec file holds.
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

// The binary format of word2vec (-binary 1) and gensim (save_word2vec_format(binary=True)): the
// same "V D" header line, then per word its bytes, a space and D little-endian float32s. word2vec
// ends each vector with '\n', gensim does not: both are read, and written with it.
std::string formatWord2VecBinary(const WordVectors &vectors);
void writeWord2VecBinary(const std::string &path, const WordVectors &vectors);
// Throws std::invalid_argument naming the word and what is wrong (bad header, more words than the
// file can hold, truncated, repeated word, a value not finite, bytes after the last word).
WordVectors parseWord2VecBinary(const std::string &bytes);

// Either format, told by what follows the header: text is UTF-8 without control characters,
// a binary vector almost never is. Throws as the format's own parser does.
WordVectors parseWord2Vec(const std::string &bytes);
WordVectors readWord2Vec(const std::string &path);
// Which format the first bytes of a file (a few hundred are enough) are in: a "V D" header line,
// then a word followed by a number (text) or by a space and binary data; None for anything else.
enum class Word2VecFormat { None, Text, Binary };
Word2VecFormat word2vecFormat(const std::string &firstBytes);
