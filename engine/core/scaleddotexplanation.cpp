#include "engine/core/scaleddotexplanation.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace {

std::vector<double> scaledDotRow(const std::vector<double> &rows, int width, int r)
{
    const auto first = rows.begin() + std::ptrdiff_t(r) * width;
    return std::vector<double>(first, first + width);
}

}  // namespace

ScaledDotExplanation explainScaledDot(const std::vector<double> &q, const std::vector<double> &keys,
                                      const std::vector<double> &values, int keyCount, int query, int key,
                                      int visibleKeys)
{
    const int dK = int(q.size());
    if (dK < 1 || keyCount < 1 || keys.size() != std::size_t(keyCount) * std::size_t(dK)
        || values.size() != keys.size())
        throw std::invalid_argument("q, the keys and the values do not have the same width");
    if (key < 0 || key >= keyCount)
        throw std::invalid_argument("no key " + std::to_string(key) + " among " + std::to_string(keyCount));
    if (visibleKeys < 1 || visibleKeys > keyCount)
        throw std::invalid_argument("a query must see between 1 and " + std::to_string(keyCount) + " keys, not "
                                    + std::to_string(visibleKeys));
    ScaledDotExplanation e;
    e.query = query;
    e.key = key;
    e.visibleKeys = visibleKeys;
    e.q = q;
    e.k = scaledDotRow(keys, dK, key);
    for (int m = 0; m < dK; ++m) {
        e.products.push_back(e.q[std::size_t(m)] * e.k[std::size_t(m)]);
        e.dot += e.products.back();
    }
    e.scale = std::sqrt(double(dK));
    double largest = -HUGE_VAL;
    for (int j = 0; j < keyCount; ++j) {
        double dot = 0;
        for (int m = 0; m < dK; ++m)
            dot += q[std::size_t(m)] * keys[std::size_t(j) * std::size_t(dK) + std::size_t(m)];
        e.scores.push_back(dot / e.scale);
        if (j < visibleKeys)
            largest = std::max(largest, e.scores.back());
    }
    // The row maximum first: the same weights, and no exp() overflow.
    double sum = 0;
    for (int j = 0; j < keyCount; ++j) {
        e.weights.push_back(j < visibleKeys ? std::exp(e.scores[std::size_t(j)] - largest) : 0.0);
        sum += e.weights.back();
    }
    e.output.assign(std::size_t(dK), 0.0);
    for (int j = 0; j < keyCount; ++j) {
        e.weights[std::size_t(j)] /= sum;
        for (int m = 0; m < dK; ++m)
            e.output[std::size_t(m)] += e.weights[std::size_t(j)] * values[std::size_t(j) * std::size_t(dK) + std::size_t(m)];
    }
    e.value = scaledDotRow(values, dK, key);
    for (double x : e.value)
        e.share.push_back(e.weight() * x);
    return e;
}
