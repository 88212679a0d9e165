#pragma once

#include "engine/core/attributionmethods.h"

#include <string>
#include <vector>

// Why this word and not that one: at output step `row` of an explained sentence, each method
// explains f = log P(y_row) - log P(alternative) instead of log P(y_row). Attention (and rollout)
// have no contrastive form; their row is the attention row as it is. What every sequence lab's
// contrastive explanations share.
struct ContrastiveAttribution {
    int row = 0;
    std::string alternative;
    double logProbDifference = 0;      // f itself
    std::vector<AttributionMap> maps;  // one row each, methods as in the sentence explained
};
