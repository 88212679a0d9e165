#pragma once

#include "engine/selfattention/scaleddotproductattention.h"

#include <string>
#include <vector>

// One sentence's self-attention against another's, word by word: what reordering the words or
// adding one does to each row. Words are matched by text, the k-th occurrence of a word to its k-th
// occurrence in the other sentence.
struct SentenceComparison {
    std::vector<int> match;         // per word of the first: its position in the second, -1 when absent
    std::vector<int> added;         // positions in the second of the words the first lacks
    bool reordering = false;        // the same words, in another order
    double largestScoreChange = 0;  // over pairs of matched words (i, j): |s_ij − s'_ij|
    double largestWeightChange = 0; // the same for the weights
    // Per word of the first, NaN when it is not in the second: the total variation distance between
    // its row of weights before and after (half the sum of absolute changes over all keys of both
    // sentences; 0 is the same row, 1 no key in common), and the weight it now gives added words.
    std::vector<double> rowChange;
    std::vector<double> addedShare;
};

// Throws std::invalid_argument when a token list does not match its attention's rows.
SentenceComparison compareSentences(const std::vector<std::string> &firstTokens, const ScaledDotProductAttention &first,
                                    const std::vector<std::string> &secondTokens,
                                    const ScaledDotProductAttention &second);
