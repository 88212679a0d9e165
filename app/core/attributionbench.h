#pragma once

#include "engine/core/explainedsentence.h"

#include <QJsonObject>

#include <functional>
#include <string>
#include <vector>

// What explaining one sentence costs by each attribution method alone (and by all of them at
// once), integrated gradients at the default number of steps; and the gradient methods on one
// output step, as the lab's comparison of methods asks for the clicked word.
struct AttributionCost {
    std::string name;         // the method's name, or "all"
    int row = -1;             // the one output step the gradient methods explain, or -1: every step
    std::vector<double> ms;   // sorted
    double worstGapShare = 0;  // integrated gradients: largest completeness gap / |f(x) - f(x')|
};

// One sentence explained by a lab's model with the options given.
using SentenceExplainer = std::function<ExplainedSentence(const AttributionOptions &)>;

// Each of `methods` alone, then all of them; then integrated gradients and all of them on the
// middle output step of a sentence of `words` words.
std::vector<AttributionCost> measureAttributionCost(const SentenceExplainer &explain,
                                                    const std::vector<AttributionMethod> &methods, int words);
void printAttributionCost(const std::vector<AttributionCost> &costs);
QJsonObject attributionCostJson(const std::vector<AttributionCost> &costs);
