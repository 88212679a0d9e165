#include "engine/selfattention/selfattentionexplanation.h"

#include <stdexcept>
#include <string>

ScaledDotExplanation explainSelfAttention(const ScaledDotProductAttention &a, int query, int key)
{
    const int n = a.tokens();
    if (query < 0 || query >= n || key < 0 || key >= n || a.q.rows != n || a.k.rows != n)
        throw std::invalid_argument("no cell (" + std::to_string(query) + ", " + std::to_string(key)
                                    + ") in self-attention over " + std::to_string(n) + " words");
    const auto first = a.q.values.begin() + std::ptrdiff_t(query) * a.q.columns;
    return explainScaledDot(std::vector<double>(first, first + a.q.columns), a.k.values, a.v.values, n, query, key, n);
}
