#include "engine/charlm/ngrambaseline.h"

#include "engine/charlm/chartext.h"
#include "engine/fast/parallelfor.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace {

constexpr int kMaxOrder = 5;

uint64_t key(uint32_t context, int32_t character)
{
    return uint64_t(context) << 32 | uint32_t(character);
}

}

// Contexts are numbered as they are first seen and kept as a trie read backwards from the
// predicted character: context 0 is the empty one, and the context one character longer than `c`,
// reaching back to character x, is m_contexts[c << 32 | x]. The n-1 characters before a position
// are so n-1 lookups away, whatever the alphabet's size, and a shorter context near the start of a
// span is a node of its own. m_counts[context << 32 | next] counts what followed each context,
// m_totals[context] all that did.
CharNgramModel::CharNgramModel(int order, double addK, int alphabetSize)
    : m_order(order), m_addK(addK), m_alphabetSize(alphabetSize), m_totals(1, 0)
{
    if (order < 1 || order > kMaxOrder)
        throw std::invalid_argument("The n-gram order must be from 1 to " + std::to_string(kMaxOrder) + ".");
    if (!(addK > 0) || !std::isfinite(addK))
        throw std::invalid_argument("The n-gram model's add-k smoothing must be more than 0.");
    if (alphabetSize < 1)
        throw std::invalid_argument("The n-gram model needs an alphabet of at least one character.");
}

void CharNgramModel::checkIds(const int32_t *ids, int64_t count) const
{
    for (int64_t i = 0; i < count; ++i)
        if (ids[i] < 0 || ids[i] >= m_alphabetSize)
            throw std::invalid_argument("The n-gram model was given a character outside its alphabet.");
}

void CharNgramModel::fit(const int32_t *ids, int64_t count)
{
    checkIds(ids, count);
    if (int64_t(m_totals.size()) + count * (m_order - 1) > int64_t(std::numeric_limits<uint32_t>::max()))
        throw std::invalid_argument("The text is too long for the n-gram model.");
    for (int64_t i = 0; i < count; ++i) {
        uint32_t context = 0;
        for (int64_t back = 1; back < m_order && back <= i; ++back) {
            const auto [it, added] = m_contexts.try_emplace(key(context, ids[i - back]), uint32_t(m_totals.size()));
            if (added)
                m_totals.push_back(0);
            context = it->second;
        }
        ++m_counts[key(context, ids[i])];
        ++m_totals[context];
    }
}

double CharNgramModel::bitsPerChar(const int32_t *ids, int64_t count) const
{
    if (count <= 0)
        return std::numeric_limits<double>::quiet_NaN();
    checkIds(ids, count);
    double bits = 0;
    const double smoothing = m_addK * m_alphabetSize;
    for (int64_t i = 0; i < count; ++i) {
        double seen = 0, total = 0;
        uint32_t context = 0;
        bool known = true;
        for (int64_t back = 1; back < m_order && back <= i; ++back) {
            const auto it = m_contexts.find(key(context, ids[i - back]));
            if (it == m_contexts.end()) {
                known = false;
                break;
            }
            context = it->second;
        }
        if (known) {
            total = m_totals[context];
            const auto it = m_counts.find(key(context, ids[i]));
            seen = it == m_counts.end() ? 0 : it->second;
        }
        bits -= std::log2((seen + m_addK) / (total + smoothing));
    }
    return bits / double(count);
}

NgramBaseline ngramBaseline(const CharText &text, double addK)
{
    NgramBaseline baseline;
    baseline.addK = addK;
    baseline.onTraining = text.validationLength() == 0;
    const int32_t *measured = text.ids.data() + (baseline.onTraining ? 0 : text.trainLength);
    const int64_t measuredCount = baseline.onTraining ? text.trainLength : text.validationLength();
    baseline.bitsPerChar.resize(kMaxOrder);
    // The orders share nothing but the text: each counts on a thread of its own.
    parallelFor(kMaxOrder, [&](int part) {
        CharNgramModel model(part + 1, addK, text.alphabetSize());
        model.fit(text.ids.data(), text.trainLength);
        baseline.bitsPerChar[std::size_t(part)] = model.bitsPerChar(measured, measuredCount);
    }, Workers::Pooled);
    baseline.bestOrder = int(std::min_element(baseline.bitsPerChar.begin(), baseline.bitsPerChar.end()) -
                             baseline.bitsPerChar.begin()) + 1;
    return baseline;
}
