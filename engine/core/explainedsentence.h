#pragma once

#include "engine/core/attributionmethods.h"

#include <string>
#include <vector>

// One sentence's greedy output explained by the methods asked, whatever the model: what the
// tables, files and views of attribution read.
struct ExplainedSentence {
    std::vector<std::string> sourceTokens;  // the words as the model read them, then <EOS>
    std::vector<std::string> outputTokens;  // as decoded, <EOS> included when the model said it
    std::vector<std::string> words;         // the columns: sourceTokens without <EOS>
    std::vector<StepScore> steps;           // one per output step
    std::vector<AttributionMap> maps;       // the methods asked for, in the order asked
    // Integrated gradients only, one per step: f_t(x) - f_t(x') and |sum_i IG_i - (f_t(x) - f_t(x'))|,
    // which the method's completeness axiom says is 0 as m grows.
    std::vector<double> integrationDelta;
    std::vector<double> completenessGap;
    // As AttributionOptions::gradientRow: -1, or the one row the gradient methods' maps hold (their
    // other rows, and the integration figures there, are NaN).
    int gradientRow = -1;

    // The decode explained: its tokens as above, the words taken from the source. Throws
    // std::invalid_argument for fewer than two words (removing the only word leaves nothing to read).
    void setTokens(const std::vector<std::string> &source, const std::vector<std::string> &output);
    const AttributionMap *map(AttributionMethod method) const;  // nullptr when it was not computed
    std::string inputText() const;   // the words, joined
    std::string outputText() const;  // the output without <EOS>, joined
};
