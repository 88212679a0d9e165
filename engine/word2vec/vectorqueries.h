#pragma once

#include "engine/word2vec/wordvectors.h"

#include <string>
#include <unordered_map>
#include <vector>

struct ScoredWord {
    std::string word;
    int index = -1;
    double score = 0;  // cosine similarity
};

// Unit-length copies of the vectors and a word -> row map, for the queries gensim's KeyedVectors
// answers. Zero vectors stay zero (similarity 0 to everything).
class VectorIndex
{
public:
    explicit VectorIndex(const WordVectors &vectors);

    int size() const { return int(m_words.size()); }
    int index(const std::string &word) const;  // -1 when absent
    const std::string &word(int index) const { return m_words[index]; }

    // The `count` words most similar to `word` by cosine, best first, itself left out.
    std::vector<ScoredWord> nearest(int word, int count) const;
    // gensim's most_similar(positive=[b, c], negative=[a]): unit(b) - unit(a) + unit(c), the three
    // inputs excluded (a : b :: c : ?).
    std::vector<ScoredWord> analogy(int a, int b, int c, int count) const;
    // The word least similar to the mean of all the words' unit vectors (gensim's doesnt_match).
    int oddOneOut(const std::vector<int> &words) const;
    double similarity(int a, int b) const;

private:
    std::vector<ScoredWord> best(const std::vector<float> &query, const std::vector<int> &excluded,
                                 int count) const;

    std::vector<std::string> m_words;
    int m_dimensions = 0;
    std::vector<float> m_unit;
    std::unordered_map<std::string, int> m_rows;
};
