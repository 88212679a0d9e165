#pragma once

#include "engine/attention/attribution.h"
#include "engine/core/datasetconfig.h"
#include "engine/core/sentencepair.h"

#include <functional>
#include <string>
#include <vector>

class Seq2SeqModel;

// Do the methods agree, and which of them is faithful to the model? Erasure as ERASER measures it
// (DeYoung et al. 2020): comprehensiveness is the fall in P(y_t) when a method's top k% of the
// source words are left out, sufficiency the fall when only they are kept (order kept). A faithful
// method has high comprehensiveness and low sufficiency; a random ranking is the baseline.
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
std::vector<double> rowAgreement(const SentenceAttribution &explained, int row);

struct FaithfulnessReport {
    int sentences = 0;
    int steps = 0;
    std::vector<AttributionMethod> methods;  // as computed (attention only with attention)
    std::vector<double> agreement;           // methods x methods: mean of rowAgreement over steps where defined
    // Per method: the share of steps with a known answer where the method's top word is that answer;
    // NaN for every method when no step has one.
    std::vector<double> topAnswerAgreement;
    int answeredSteps = 0;
    std::vector<ErasureCurve> curves;  // one per method in `methods`, then "random"
};

// Every sentence of `data` (its source) explained with `options` and measured, in one report: the
// agreement over every output step, top-word agreement with the known answer of `task` (steps that
// wrote <EOS> have none), and the erasure curves, a sentence's erasures by every method scored in
// one batch (split only where it would not fit in memory). The random ranking is drawn anew for
// each step from a fixed seed, so a report can be made again. Sentences of fewer than two words
// are left out (attribute() refuses them). `keepGoing` is asked before each sentence; when it says
// no, the report covers the sentences done so far.
FaithfulnessReport measureFaithfulness(const Seq2SeqModel &model, const std::vector<SentencePair> &data, Task task,
                                       const AttributionOptions &options = {},
                                       const std::function<bool()> &keepGoing = {});
