#pragma once

#include "engine/attention/attribution.h"

#include <QJsonObject>

#include <vector>

class Seq2SeqModel;
struct SentencePair;

// What explaining one sentence costs by each attribution method alone (and by all of them at
// once, as the lab asks), integrated gradients at the default number of steps.
struct AttributionCost {
    std::string name;         // the method's name, or "all"
    std::vector<double> ms;   // sorted
    double worstGapShare = 0;  // integrated gradients: largest completeness gap / |f(x) - f(x')|
};

std::vector<AttributionCost> measureAttributionCost(const Seq2SeqModel &model, const SentencePair &sentence);
void printAttributionCost(const std::vector<AttributionCost> &costs);
QJsonObject attributionCostJson(const std::vector<AttributionCost> &costs);
