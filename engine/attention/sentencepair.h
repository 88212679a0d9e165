#pragma once

#include <string>
#include <vector>

// One example: source words and the words the model should produce (no special tokens).
struct SentencePair {
    std::vector<std::string> source;
    std::vector<std::string> target;
};
