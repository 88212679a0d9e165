#include "engine/word2vec/noisedistribution.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

NoiseDistribution::NoiseDistribution(const std::vector<int64_t> &counts, double exponent)
{
    if (counts.empty())
        throw std::invalid_argument("The noise distribution needs at least one word.");
    m_probabilities.resize(counts.size());
    double total = 0;
    for (size_t i = 0; i < counts.size(); ++i) {
        m_probabilities[i] = std::pow(double(std::max<int64_t>(counts[i], 0)), exponent);
        total += m_probabilities[i];
    }
    for (double &p : m_probabilities)
        p /= total;

    // Vose's construction: scaled by the number of columns, a word below 1 fills its own column up
    // to its share and lends the rest of it to a word above 1, which keeps what is left of its
    // own share for the next; a word left at the end fills its column whole.
    const size_t n = counts.size();
    std::vector<double> scaled(n);
    std::vector<int32_t> small, large;
    for (size_t i = 0; i < n; ++i) {
        scaled[i] = m_probabilities[i] * double(n);
        (scaled[i] < 1.0 ? small : large).push_back(int32_t(i));
    }
    constexpr double kWhole = 4294967296.0;  // 2^32
    m_threshold.assign(n, 0xFFFFFFFFu);
    m_alias.resize(n);
    for (size_t i = 0; i < n; ++i)
        m_alias[i] = int32_t(i);
    while (!small.empty() && !large.empty()) {
        const int32_t lender = small.back();
        small.pop_back();
        const int32_t borrower = large.back();
        m_threshold[size_t(lender)] = uint32_t(std::min(kWhole - 1, std::round(scaled[size_t(lender)] * kWhole)));
        m_alias[size_t(lender)] = borrower;
        scaled[size_t(borrower)] -= 1.0 - scaled[size_t(lender)];
        if (scaled[size_t(borrower)] < 1.0) {
            large.pop_back();
            small.push_back(borrower);
        }
    }
}

double NoiseDistribution::drawProbability(int word) const
{
    constexpr double kWhole = 4294967296.0;
    double columns = 0;
    for (size_t c = 0; c < m_threshold.size(); ++c) {
        // Column c holds its own word for thresholds in [0, threshold) and its alias beyond; a
        // full column (threshold 2^32 - 1) misses its own word only at the last value.
        const double own = m_threshold[c] == 0xFFFFFFFFu ? 1.0 : double(m_threshold[c]) / kWhole;
        if (int(c) == word)
            columns += own;
        if (m_alias[c] == word && m_alias[c] != int32_t(c))
            columns += 1.0 - own;
    }
    return columns / double(m_threshold.size());
}

double keepProbability(int64_t count, int64_t totalTokens, double threshold)
{
    if (threshold <= 0 || count <= 0 || totalTokens <= 0)
        return 1;
    const double f = double(count) / double(totalTokens);
    return std::min(1.0, (std::sqrt(f / threshold) + 1) * threshold / f);
}
