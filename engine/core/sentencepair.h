#pragma once

#include <string>
#include <vector>

// One example: source words and the words the model should produce (no special tokens).
struct SentencePair {
    std::vector<std::string> source;
    std::vector<std::string> target;
};

// A pair gives its vocabulary (Vocabulary::build()) the source words only: the target holds the
// same words again, and counting both would keep a word seen once at a minimum count of 2.
inline const std::vector<std::string> &vocabularyTokens(const SentencePair &pair)
{
    return pair.source;
}
