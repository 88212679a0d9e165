#pragma once

#include <vector>

// Below three words a rank correlation is +1, -1 or undefined whatever the model does.
constexpr int kMinimumCorrelatedWords = 3;

// Spearman's rank correlation: Pearson's correlation of the two sides' ranks, tied values sharing
// their mean rank. NaN when it is undefined: sides of different sizes, fewer than two values, or a
// side whose values are all equal (its ranks do not vary).
double spearmanCorrelation(const std::vector<double> &a, const std::vector<double> &b);
