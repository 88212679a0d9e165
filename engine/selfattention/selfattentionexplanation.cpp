#include "engine/selfattention/selfattentionexplanation.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace {

std::vector<double> row(const Matrix &m, int r)
{
    const auto first = m.values.begin() + std::ptrdiff_t(r) * m.columns;
    return std::vector<double>(first, first + m.columns);
}

}

SelfAttentionExplanation explainSelfAttention(const ScaledDotProductAttention &a, int query, int key)
{
    const int n = a.tokens();
    if (query < 0 || query >= n || key < 0 || key >= n || a.q.rows != n || a.k.rows != n)
        throw std::invalid_argument("no cell (" + std::to_string(query) + ", " + std::to_string(key)
                                    + ") in self-attention over " + std::to_string(n) + " words");
    SelfAttentionExplanation e;
    e.query = query;
    e.key = key;
    e.q = row(a.q, query);
    e.k = row(a.k, key);
    for (std::size_t m = 0; m < e.q.size(); ++m) {
        e.products.push_back(e.q[m] * e.k[m]);
        e.dot += e.products.back();
    }
    e.scale = std::sqrt(double(a.dK()));
    // The rest is the explorer's own computation, read from its matrices.
    e.scores = row(a.scores, query);
    e.weights = row(a.weights, query);
    e.value = row(a.v, key);
    for (double x : e.value)
        e.share.push_back(e.weight() * x);
    e.output = row(a.output, query);
    return e;
}
