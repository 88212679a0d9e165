#pragma once

#include "engine/core/datasetconfig.h"
#include "engine/core/explainedsentence.h"

#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

// Do the methods agree, and which of them is faithful to the model? Erasure as ERASER measures it
// (DeYoung et al. 2020): comprehensiveness is the fall in P(y_t) when a method's top k% of the
// source words are left out, sufficiency the fall when only they are kept (order kept). A faithful
// method has high comprehensiveness and low sufficiency; a random ranking is the baseline. What
// every sequence lab's faithfulness shares; each lab only scores its changed sources.
// k = 0.1, 0.2, 0.3, 0.4, 0.5: ceil(k n) of a sentence's n words, at least one and never all of them.
const std::vector<double> &erasureFractions();

struct ErasureCurve {
    std::string name;                       // the method's name (attributionMethodName), or "random"
    std::vector<double> comprehensiveness;  // one per fraction, mean over steps; NaN without steps
    std::vector<double> sufficiency;        // one per fraction, mean over steps; NaN without steps
};

// The source column output step `row` must come from when the task is known: reverse reads word
// n-1-row, copy word row; -1 for the <EOS> step and rows beyond the source.
int knownAnswerColumn(Task task, int words, int row);

// Spearman's rank correlation between every pair of `explained`'s maps on one output row:
// maps x maps, row-major, NaN where it is undefined (fewer than three words, or one side all equal).
std::vector<double> rowAgreement(const ExplainedSentence &explained, int row);

struct FaithfulnessReport {
    int sentences = 0;
    int steps = 0;
    std::vector<AttributionMethod> methods;  // as computed
    std::vector<double> agreement;           // methods x methods: mean of rowAgreement over steps where defined
    // Per method: the share of steps with a known answer where the method's top word is that answer;
    // NaN for every method when no step has one.
    std::vector<double> topAnswerAgreement;
    int answeredSteps = 0;
    std::vector<ErasureCurve> curves;  // one per method in `methods`, then "random"
};

// log P(y_t | y_<t, source) of the explained output, teacher-forced, for each of `sources` (each
// the sentence's words, some left out, in their order): sources x output steps.
using ErasedSourceScorer =
    std::function<std::vector<std::vector<double>>(const std::vector<std::vector<std::string>> &sources)>;

// A report built sentence by sentence: the agreement over every output step, top-word agreement
// with the known answer of the task (steps that wrote <EOS> have none), and the erasure curves, a
// sentence's erasures by every method scored in one call of the lab's scorer. The random ranking
// is drawn anew for each step from a fixed seed, so a report can be made again.
class FaithfulnessTally
{
public:
    FaithfulnessTally(std::vector<AttributionMethod> methods, Task task);

    // `explained` must hold the tally's methods' maps, in its order.
    void add(const ExplainedSentence &explained, const ErasedSourceScorer &score);
    FaithfulnessReport report() const;

private:
    void addAgreement(const ExplainedSentence &explained);
    void addErasures(const ExplainedSentence &explained, const ErasedSourceScorer &score);

    Task m_task;
    FaithfulnessReport m_counts;  // methods, sentences, steps and answered steps; the figures below as sums
    std::vector<double> m_agreement;
    std::vector<int> m_agreementCounts;
    std::vector<int> m_topAnswerHits;
    std::vector<std::vector<double>> m_comprehensiveness;  // per curve, per fraction
    std::vector<std::vector<double>> m_sufficiency;
    std::mt19937 m_generator;
};
