#pragma once

#include <map>
#include <vector>

// The spread of one measure over runs that differ only in their seed: what seed noise alone moves.
struct Spread {
    double mean = 0;
    double min = 0;
    double max = 0;
    int runs = 0;  // how many runs the values came from; 0: none, the rest is 0
};

Spread spreadOf(const std::vector<double> &values);

// For each key (an epoch, a sentence length) that any run has, the spread over the runs that have
// it: a run stopped early counts in the epochs it reached and no further.
std::map<int, Spread> spreadByKey(const std::vector<std::map<int, double>> &runs);
