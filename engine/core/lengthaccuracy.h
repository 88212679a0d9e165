#pragma once

#include <map>

// Exact match among the sentences of one length: how many came out right of how many.
struct LengthAccuracy {
    int correct = 0;
    int total = 0;
};

// Exact match (0..1) by length, lengths without sentences left out.
std::map<int, double> exactMatchByLength(const std::map<int, LengthAccuracy> &byLength);
