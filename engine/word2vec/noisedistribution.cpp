#include "engine/word2vec/noisedistribution.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

NoiseDistribution::NoiseDistribution(const std::vector<int64_t> &counts, double exponent, int tableSize)
{
    if (counts.empty() || tableSize < 1)
        throw std::invalid_argument("The noise distribution needs at least one word and a table of one entry.");
    m_probabilities.resize(counts.size());
    double total = 0;
    for (size_t i = 0; i < counts.size(); ++i) {
        m_probabilities[i] = std::pow(double(std::max<int64_t>(counts[i], 0)), exponent);
        total += m_probabilities[i];
    }
    for (double &p : m_probabilities)
        p /= total;

    // Each word fills the table from the rounded start of its cumulative share to the rounded start
    // of the next word's, so its share of entries is its probability to within one entry.
    m_table.resize(size_t(tableSize));
    double cumulative = 0;
    int64_t begin = 0;
    for (size_t i = 0; i < counts.size(); ++i) {
        cumulative += m_probabilities[i];
        const int64_t end = i + 1 == counts.size() ? tableSize
                                                   : std::min<int64_t>(tableSize, std::llround(cumulative * tableSize));
        std::fill(m_table.begin() + begin, m_table.begin() + std::max(begin, end), int32_t(i));
        begin = std::max(begin, end);
    }
}

double keepProbability(int64_t count, int64_t totalTokens, double threshold)
{
    if (threshold <= 0 || count <= 0 || totalTokens <= 0)
        return 1;
    const double f = double(count) / double(totalTokens);
    return std::min(1.0, (std::sqrt(f / threshold) + 1) * threshold / f);
}
