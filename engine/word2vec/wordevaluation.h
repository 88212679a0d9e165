#pragma once

#include "engine/word2vec/vectorqueries.h"

#include <string>
#include <vector>

// Analogy accuracy on the questions-words format (": section" lines, then "a b c d"), counting
// only questions whose four words are all in the vocabulary, as gensim does.
struct AnalogySection {
    std::string name;
    int asked = 0;
    int right = 0;
};
struct AnalogyResult {
    int asked = 0;
    int right = 0;
    int skipped = 0;  // questions with a word outside the vocabulary
    std::vector<AnalogySection> sections;
    double accuracy() const { return asked ? double(right) / asked : 0; }
};
// Throws std::invalid_argument for a line that is neither a section nor four words.
AnalogyResult evaluateAnalogies(const VectorIndex &vectors, const std::string &questionsText);

// Spearman correlation between a word-pair similarity file ("w1 w2 score" per line, '#' comments,
// tabs or spaces, as wordsim353 is distributed) and the vectors' cosine similarities.
struct SimilarityResult {
    int pairs = 0;
    int skipped = 0;
    double spearman = 0;  // 0 when it is undefined (too few pairs, or either side constant)
};
SimilarityResult evaluateSimilarity(const VectorIndex &vectors, const std::string &pairsText);
