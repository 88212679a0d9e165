#pragma once

#include <cstdint>
#include <vector>

// The distribution negative samples are drawn from: count^exponent, normalised. Drawn through a
// table of word ids, as word2vec.c does, so a draw is one random number and one load.
class NoiseDistribution
{
public:
    NoiseDistribution(const std::vector<int64_t> &counts, double exponent, int tableSize = 1 << 22);

    const std::vector<double> &probabilities() const { return m_probabilities; }  // per word
    int draw(uint64_t random) const { return m_table[random % m_table.size()]; }
    const std::vector<int32_t> &table() const { return m_table; }

private:
    std::vector<double> m_probabilities;
    std::vector<int32_t> m_table;
};

// word2vec.c's keep probability for a word of frequency count/total at threshold t:
// (sqrt(f / t) + 1) * t / f, at most 1; t = 0 keeps everything.
double keepProbability(int64_t count, int64_t totalTokens, double threshold);
