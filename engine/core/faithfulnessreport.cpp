#include "engine/core/faithfulnessreport.h"

#include "engine/core/rankcorrelation.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>

namespace {

constexpr std::uint32_t kRandomRankingSeed = 37;
constexpr const char *kRandomCurveName = "random";
constexpr const char *kEndOfOutput = "<EOS>";

const double kUndefined = std::numeric_limits<double>::quiet_NaN();

// The columns by score, highest first; equal scores keep their column order, and a score that is
// not a number (a gradient that overflowed) ranks last rather than breaking the sort's order.
std::vector<int> columnsByScore(const std::vector<double> &scores)
{
    const auto key = [&](int column) {
        const double score = scores[std::size_t(column)];
        return std::isnan(score) ? -std::numeric_limits<double>::infinity() : score;
    };
    std::vector<int> order(scores.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return key(a) > key(b); });
    return order;
}

// Fisher-Yates on the generator's raw output, so the same seed gives the same ranking with any
// standard library (std::shuffle's algorithm is left to each).
std::vector<int> randomRanking(int columns, std::mt19937 &generator)
{
    std::vector<int> order(static_cast<std::size_t>(columns));
    std::iota(order.begin(), order.end(), 0);
    for (std::size_t i = order.size(); i > 1; --i)
        std::swap(order[i - 1], order[generator() % i]);
    return order;
}

// ceil(k n), the small epsilon keeping 0.3 x 10 at 3; at least one word, and one word always left.
int wordsErased(double fraction, int words)
{
    const int count = int(std::ceil(fraction * words - 1e-9));
    return std::clamp(count, 1, words - 1);
}

// The changed sources of one sentence, each set of kept columns once: methods often agree on
// their top words, and a set scored once is scored for every step.
class ErasedSources
{
public:
    explicit ErasedSources(const std::vector<std::string> &words) : m_words(words) {}

    std::size_t add(const std::vector<bool> &kept)
    {
        const auto found = m_index.find(kept);
        if (found != m_index.end())
            return found->second;
        std::vector<std::string> source;
        for (std::size_t i = 0; i < kept.size(); ++i)
            if (kept[i])
                source.push_back(m_words[i]);
        m_sources.push_back(std::move(source));
        m_index.emplace(kept, m_sources.size() - 1);
        return m_sources.size() - 1;
    }
    const std::vector<std::vector<std::string>> &sources() const { return m_sources; }

private:
    const std::vector<std::string> &m_words;
    std::map<std::vector<bool>, std::size_t> m_index;
    std::vector<std::vector<std::string>> m_sources;
};

}

const std::vector<double> &erasureFractions()
{
    static const std::vector<double> fractions{0.1, 0.2, 0.3, 0.4, 0.5};
    return fractions;
}

int knownAnswerColumn(Task task, int words, int row)
{
    if (row < 0 || row >= words)
        return -1;
    return task == Task::Reverse ? words - 1 - row : row;
}

std::vector<double> rowAgreement(const ExplainedSentence &explained, int row)
{
    const std::size_t count = explained.maps.size();
    std::vector<double> agreement(count * count, kUndefined);
    if (int(explained.words.size()) < kMinimumCorrelatedWords)
        return agreement;
    std::vector<std::vector<double>> rows;
    for (const AttributionMap &map : explained.maps)
        rows.push_back(map.row(row));
    for (std::size_t i = 0; i < count; ++i)
        for (std::size_t j = 0; j < count; ++j)
            agreement[i * count + j] = spearmanCorrelation(rows[i], rows[j]);
    return agreement;
}

FaithfulnessTally::FaithfulnessTally(std::vector<AttributionMethod> methods, Task task)
    : m_task(task), m_generator(kRandomRankingSeed)
{
    const std::size_t count = methods.size();
    m_counts.methods = std::move(methods);
    m_agreement.assign(count * count, 0);
    m_agreementCounts.assign(count * count, 0);
    m_topAnswerHits.assign(count, 0);
    m_comprehensiveness.assign(count + 1, std::vector<double>(erasureFractions().size(), 0));
    m_sufficiency = m_comprehensiveness;
}

void FaithfulnessTally::add(const ExplainedSentence &explained, const ErasedSourceScorer &score)
{
    addAgreement(explained);
    addErasures(explained, score);
    ++m_counts.sentences;
    m_counts.steps += int(explained.steps.size());
}

void FaithfulnessTally::addAgreement(const ExplainedSentence &explained)
{
    const int columns = int(explained.words.size());
    for (int row = 0; row < int(explained.steps.size()); ++row) {
        const std::vector<double> agreement = rowAgreement(explained, row);
        for (std::size_t i = 0; i < agreement.size(); ++i)
            if (!std::isnan(agreement[i])) {
                m_agreement[i] += agreement[i];
                ++m_agreementCounts[i];
            }
        const int answer = knownAnswerColumn(m_task, columns, row);
        if (answer < 0 || explained.outputTokens[std::size_t(row)] == kEndOfOutput)
            continue;
        ++m_counts.answeredSteps;
        for (std::size_t m = 0; m < explained.maps.size(); ++m)
            m_topAnswerHits[m] += columnsByScore(explained.maps[m].row(row)).front() == answer;
    }
}

void FaithfulnessTally::addErasures(const ExplainedSentence &explained, const ErasedSourceScorer &score)
{
    const int columns = int(explained.words.size());
    const int rows = int(explained.steps.size());
    const std::vector<double> &fractions = erasureFractions();
    struct Erasure {
        std::size_t curve, fraction;
        int row;
        std::size_t without, only;
    };
    ErasedSources erased(explained.words);
    const std::size_t whole = erased.add(std::vector<bool>(std::size_t(columns), true));
    std::vector<Erasure> erasures;
    const std::size_t curves = explained.maps.size() + 1;
    for (std::size_t curve = 0; curve < curves; ++curve)
        for (int row = 0; row < rows; ++row) {
            const std::vector<int> ranking = curve < explained.maps.size()
                                                 ? columnsByScore(explained.maps[curve].row(row))
                                                 : randomRanking(columns, m_generator);
            for (std::size_t f = 0; f < fractions.size(); ++f) {
                std::vector<bool> kept(std::size_t(columns), true);
                for (int i = 0; i < wordsErased(fractions[f], columns); ++i)
                    kept[std::size_t(ranking[std::size_t(i)])] = false;
                const std::size_t without = erased.add(kept);
                kept.flip();
                erasures.push_back({curve, f, row, without, erased.add(kept)});
            }
        }
    const std::vector<std::vector<double>> logProbs = score(erased.sources());
    for (const Erasure &e : erasures) {
        const double p = std::exp(logProbs[whole][std::size_t(e.row)]);
        m_comprehensiveness[e.curve][e.fraction] += p - std::exp(logProbs[e.without][std::size_t(e.row)]);
        m_sufficiency[e.curve][e.fraction] += p - std::exp(logProbs[e.only][std::size_t(e.row)]);
    }
}

FaithfulnessReport FaithfulnessTally::report() const
{
    FaithfulnessReport report = m_counts;
    const std::size_t methods = report.methods.size();
    for (std::size_t i = 0; i < methods * methods; ++i)
        report.agreement.push_back(m_agreementCounts[i] ? m_agreement[i] / m_agreementCounts[i] : kUndefined);
    for (std::size_t m = 0; m < methods; ++m)
        report.topAnswerAgreement.push_back(report.answeredSteps ? double(m_topAnswerHits[m]) / report.answeredSteps
                                                                 : kUndefined);
    for (std::size_t curve = 0; curve <= methods; ++curve) {
        ErasureCurve c;
        c.name = curve < methods ? attributionMethodName(report.methods[curve]) : kRandomCurveName;
        for (std::size_t f = 0; f < erasureFractions().size(); ++f) {
            c.comprehensiveness.push_back(report.steps ? m_comprehensiveness[curve][f] / report.steps : kUndefined);
            c.sufficiency.push_back(report.steps ? m_sufficiency[curve][f] / report.steps : kUndefined);
        }
        report.curves.push_back(std::move(c));
    }
    return report;
}
