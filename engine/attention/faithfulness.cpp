#include "engine/attention/faithfulness.h"

#include "engine/attention/outputlogprob.h"
#include "engine/attention/seq2seqmodel.h"
#include "engine/core/rankcorrelation.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <numeric>
#include <random>

namespace {

constexpr std::uint32_t kRandomRankingSeed = 37;
constexpr const char *kRandomCurveName = "random";
constexpr const char *kEndToken = "<EOS>";
// Output values one scoring batch may hold (sources x steps x vocabulary): a long sentence of a
// corpus model has thousands of erasures, more than fit in memory at once.
constexpr double kMaxScoredValues = double(1 << 25);

const double kNaN = std::numeric_limits<double>::quiet_NaN();

// The columns by score, highest first; equal scores keep their column order.
std::vector<int> rankedColumns(const std::vector<double> &scores)
{
    std::vector<int> order(scores.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return scores[std::size_t(a)] > scores[std::size_t(b)]; });
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

// outputStepLogProbs in as few batches as memory allows.
std::vector<std::vector<double>> scoreSources(const Seq2SeqModel &model,
                                              const std::vector<std::vector<std::string>> &sources,
                                              const DecodedSentence &output)
{
    const double perSource = double(output.outputTokens.size()) * double(model.vocabulary().size());
    const std::size_t chunk = std::size_t(std::max(1.0, std::floor(kMaxScoredValues / perSource)));
    std::vector<std::vector<double>> scores;
    for (std::size_t begin = 0; begin < sources.size(); begin += chunk) {
        const std::size_t end = std::min(sources.size(), begin + chunk);
        const std::vector<std::vector<std::string>> part(sources.begin() + std::ptrdiff_t(begin),
                                                         sources.begin() + std::ptrdiff_t(end));
        for (std::vector<double> &row : outputStepLogProbs(model, part, output))
            scores.push_back(std::move(row));
    }
    return scores;
}

// The methods attribute() computes for `options` on `model`.
std::vector<AttributionMethod> computedMethods(const Seq2SeqModel &model, const AttributionOptions &options)
{
    std::vector<AttributionMethod> methods;
    for (AttributionMethod method : options.methods)
        if (method != AttributionMethod::Attention || model.hasAttention())
            methods.push_back(method);
    return methods;
}

// Running sums of the report, divided out at the end.
struct FaithfulnessSums {
    std::vector<double> agreement;
    std::vector<int> agreementCounts;
    std::vector<int> topAnswerHits;
    std::vector<std::vector<double>> comprehensiveness;  // per curve, per fraction
    std::vector<std::vector<double>> sufficiency;
};

// One sentence's agreement and top-answer figures, added to `sums`.
void addAgreement(const SentenceAttribution &explained, Task task, FaithfulnessSums &sums, FaithfulnessReport &report)
{
    const int columns = int(explained.words.size());
    for (int row = 0; row < int(explained.steps.size()); ++row) {
        const std::vector<double> agreement = rowAgreement(explained, row);
        for (std::size_t i = 0; i < agreement.size(); ++i)
            if (!std::isnan(agreement[i])) {
                sums.agreement[i] += agreement[i];
                ++sums.agreementCounts[i];
            }
        const int answer = knownAnswerColumn(task, columns, row);
        if (answer < 0 || explained.sentence.outputTokens[std::size_t(row)] == kEndToken)
            continue;
        ++report.answeredSteps;
        for (std::size_t m = 0; m < explained.maps.size(); ++m)
            sums.topAnswerHits[m] += rankedColumns(explained.maps[m].row(row)).front() == answer;
    }
}

// One sentence's erasures, every curve and fraction and step, scored in one go and added to `sums`.
void addErasures(const Seq2SeqModel &model, const SentenceAttribution &explained, std::mt19937 &generator,
                 FaithfulnessSums &sums)
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
                                                 ? rankedColumns(explained.maps[curve].row(row))
                                                 : randomRanking(columns, generator);
            for (std::size_t f = 0; f < fractions.size(); ++f) {
                std::vector<bool> kept(std::size_t(columns), true);
                for (int i = 0; i < wordsErased(fractions[f], columns); ++i)
                    kept[std::size_t(ranking[std::size_t(i)])] = false;
                const std::size_t without = erased.add(kept);
                kept.flip();
                erasures.push_back({curve, f, row, without, erased.add(kept)});
            }
        }
    const std::vector<std::vector<double>> logProbs = scoreSources(model, erased.sources(), explained.sentence);
    for (const Erasure &e : erasures) {
        const double p = std::exp(logProbs[whole][std::size_t(e.row)]);
        sums.comprehensiveness[e.curve][e.fraction] += p - std::exp(logProbs[e.without][std::size_t(e.row)]);
        sums.sufficiency[e.curve][e.fraction] += p - std::exp(logProbs[e.only][std::size_t(e.row)]);
    }
}

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

std::vector<double> rowAgreement(const SentenceAttribution &explained, int row)
{
    const std::size_t count = explained.maps.size();
    std::vector<double> agreement(count * count, kNaN);
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

FaithfulnessReport measureFaithfulness(const Seq2SeqModel &model, const std::vector<SentencePair> &data, Task task,
                                       const AttributionOptions &options, const std::function<bool()> &keepGoing)
{
    FaithfulnessReport report;
    report.methods = computedMethods(model, options);
    const std::size_t methods = report.methods.size();
    const std::size_t fractions = erasureFractions().size();
    FaithfulnessSums sums;
    sums.agreement.assign(methods * methods, 0);
    sums.agreementCounts.assign(methods * methods, 0);
    sums.topAnswerHits.assign(methods, 0);
    sums.comprehensiveness.assign(methods + 1, std::vector<double>(fractions, 0));
    sums.sufficiency = sums.comprehensiveness;

    std::mt19937 generator(kRandomRankingSeed);
    for (const SentencePair &pair : data) {
        if (keepGoing && !keepGoing())
            break;
        if (pair.source.size() < 2)
            continue;
        const SentenceAttribution explained = attribute(model, pair.source, options);
        addAgreement(explained, task, sums, report);
        addErasures(model, explained, generator, sums);
        ++report.sentences;
        report.steps += int(explained.steps.size());
    }

    for (std::size_t i = 0; i < methods * methods; ++i)
        report.agreement.push_back(sums.agreementCounts[i] ? sums.agreement[i] / sums.agreementCounts[i] : kNaN);
    for (std::size_t m = 0; m < methods; ++m)
        report.topAnswerAgreement.push_back(report.answeredSteps ? double(sums.topAnswerHits[m]) / report.answeredSteps
                                                                 : kNaN);
    for (std::size_t curve = 0; curve <= methods; ++curve) {
        ErasureCurve c;
        c.name = curve < methods ? attributionMethodName(report.methods[curve]) : kRandomCurveName;
        for (std::size_t f = 0; f < fractions; ++f) {
            c.comprehensiveness.push_back(report.steps ? sums.comprehensiveness[curve][f] / report.steps : kNaN);
            c.sufficiency.push_back(report.steps ? sums.sufficiency[curve][f] / report.steps : kNaN);
        }
        report.curves.push_back(std::move(c));
    }
    return report;
}
