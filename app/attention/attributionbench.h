#pragma once

#include "engine/attention/attribution.h"

#include <QJsonObject>

#include <vector>

class Seq2SeqModel;
struct SentencePair;

// What explaining one sentence costs by each attribution method alone (and by all of them at
// once), integrated gradients at the default number of steps; and the gradient methods on one
// output step, as the lab's comparison of methods asks for the clicked word.
struct AttributionCost {
    std::string name;         // the method's name, or "all"
    int row = -1;             // the one output step the gradient methods explain, or -1: every step
    std::vector<double> ms;   // sorted
    double worstGapShare = 0;  // integrated gradients: largest completeness gap / |f(x) - f(x')|
};

std::vector<AttributionCost> measureAttributionCost(const Seq2SeqModel &model, const SentencePair &sentence);
void printAttributionCost(const std::vector<AttributionCost> &costs);
QJsonObject attributionCostJson(const std::vector<AttributionCost> &costs);
