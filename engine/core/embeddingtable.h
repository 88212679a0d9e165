#pragma once

#include <string>
#include <vector>

// A learned embedding matrix as plain numbers: one row per vocabulary word.
struct EmbeddingTable {
    std::vector<std::string> words;
    int dimensions = 0;
    std::vector<float> values;  // words.size() x dimensions, row-major
};
