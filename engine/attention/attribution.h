#pragma once

#include "engine/attention/decodedsentence.h"
#include "engine/attention/wordremovaleffect.h"
#include "engine/core/contrastiveattribution.h"
#include "engine/core/explainedsentence.h"

#include <string>
#include <vector>

class Seq2SeqModel;

// The attention lab's model explained by the methods of engine/core/attributionmethods.h.
struct SentenceAttribution : ExplainedSentence {
    DecodedSentence sentence;  // the greedy decode explained, with its attention; maps have attention only with it

    // Whether `method`'s map was computed and holds `row`, or with -1 every row.
    bool explains(AttributionMethod method, int row = -1) const;
};

// Decodes `words` greedily (cut to Seq2SeqModel::kMaxInputTokens) and explains every output step
// by each method asked. Throws std::invalid_argument for fewer than two words (removing the only
// word leaves nothing to read), or options out of range.
SentenceAttribution attribute(const Seq2SeqModel &model, const std::vector<std::string> &words,
                              const AttributionOptions &options = {});

// Why this word and not that one (engine/core/contrastiveattribution.h), at output step `row` of
// `explained`. Throws std::invalid_argument for a row outside the output, or an alternative that is y_row
// itself or a word the model cannot write (outside its vocabulary, and with the pointer, outside the source).
ContrastiveAttribution attributeContrast(const Seq2SeqModel &model, const SentenceAttribution &explained, int row,
                                         const std::string &alternative, const AttributionOptions &options = {});
