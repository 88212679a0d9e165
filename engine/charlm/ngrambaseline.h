#pragma once

#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

// A character n-gram model with add-k smoothing: P(c | the n-1 characters before) =
// (count(context, c) + k) / (count(context) + k V). Near the start, where fewer than n-1
// characters precede, the context is what there is. Counting, the baseline an RNN must beat.
class CharNgramModel
{
public:
    // Order 1..5, k > 0; throws std::invalid_argument otherwise, as fit and bitsPerChar do for an
    // id outside the alphabet.
    CharNgramModel(int order, double addK, int alphabetSize);
    void fit(const int32_t *ids, int64_t count);
    // Mean -log2 P over ids[0, count), each predicted from the ones before it in this span; NaN
    // when count is 0.
    double bitsPerChar(const int32_t *ids, int64_t count) const;
    int order() const { return m_order; }

private:
    void checkIds(const int32_t *ids, int64_t count) const;  // throws outside the alphabet

    int m_order;
    double m_addK;
    int m_alphabetSize;
    // See the .cpp.
    std::unordered_map<uint64_t, uint32_t> m_contexts;
    std::unordered_map<uint64_t, uint32_t> m_counts;
    std::vector<uint32_t> m_totals;
};

// The baseline beside the RNN's loss: orders 1..5 fitted on the training part and measured on the
// validation tail (on the training part itself when there is none: then it says how well
// counting memorises, and `onTraining` is set).
struct NgramBaseline {
    double addK = 0;
    bool onTraining = false;
    std::vector<double> bitsPerChar;   // index order - 1
    int bestOrder = 0;                 // lowest bits per character
    double best() const { return bitsPerChar.empty() ? 0 : bitsPerChar[size_t(bestOrder - 1)]; }
};
struct CharText;
NgramBaseline ngramBaseline(const CharText &text, double addK = 0.1);
