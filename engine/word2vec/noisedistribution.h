#pragma once

#include <cstdint>
#include <vector>

// The distribution negative samples are drawn from: count^exponent, normalised. Drawn by Walker's
// alias method: each word has a column, taken uniformly, that holds the word itself up to a
// threshold and one other word (its alias) beyond. A draw is one random number, one multiply and
// two loads from tables of 8 bytes a word, which stay in cache; word2vec.c's table of 10^8 word
// ids (16 MB here, 4M entries) missed the cache at nearly every draw.
class NoiseDistribution
{
public:
    NoiseDistribution(const std::vector<int64_t> &counts, double exponent);

    const std::vector<double> &probabilities() const { return m_probabilities; }  // per word
    // The upper 32 bits of `random` pick a column, the lower 32 bits the word in it.
    int draw(uint64_t random) const
    {
        const uint32_t column = uint32_t(((random >> 32) * uint64_t(m_threshold.size())) >> 32);
        return uint32_t(random) < m_threshold[column] ? int(column) : m_alias[column];
    }
    // The probability that draw() gives `word`, from the tables (equal to probabilities()[word]
    // to within the 32-bit thresholds' rounding): what a test holds to count^exponent.
    double drawProbability(int word) const;

private:
    std::vector<double> m_probabilities;
    std::vector<uint32_t> m_threshold;  // per column, out of 2^32: below it the column's own word
    std::vector<int32_t> m_alias;
};

// word2vec.c's keep probability for a word of frequency count/total at threshold t:
// (sqrt(f / t) + 1) * t / f, at most 1; t = 0 keeps everything.
double keepProbability(int64_t count, int64_t totalTokens, double threshold);
