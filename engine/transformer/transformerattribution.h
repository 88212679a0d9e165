#pragma once

#include "engine/core/contrastiveattribution.h"
#include "engine/core/explainedsentence.h"
#include "engine/transformer/transformermodel.h"

#include <string>
#include <vector>

// The Transformer explained by the methods of engine/core/attributionmethods.h, f_t = log P(y_t |
// y_<t, source) over each source word's embedding e_i (before the sqrt(d_model) scale and the
// position), the greedy output teacher-forced as it was decoded. Its one attention is the last
// decoder layer's cross-attention, heads averaged; rollout follows every layer instead
// (crossAttentionRollout).
struct TransformerAttribution : ExplainedSentence {
    TransformerOutput output;  // the greedy decode explained, with every attention
};

// The five methods every sequence model is explained with, then rollout.
const std::vector<AttributionMethod> &transformerAttributionMethods();

// Decodes `words` greedily and explains every output step by each method asked. Throws
// std::invalid_argument for fewer than two words (removing the only word leaves nothing to read)
// or options out of range, and std::out_of_range for a sentence longer than the positions.
TransformerAttribution attributeTransformer(const TransformerModel &model, const std::vector<std::string> &words,
                                            const AttributionOptions &options = {});

// Why this word and not that one (engine/core/contrastiveattribution.h), at output step `row` of
// `explained` (a result of attributeTransformer() on `model`), by the methods it holds: the gradient
// methods and occlusion explain log P(y_row) - log P(alternative); attention and rollout have no
// contrastive form and give their row as it is. Throws std::invalid_argument for a row outside the
// output, options out of range, or an alternative that is y_row itself or a word the model cannot
// write (outside its vocabulary, or <PAD> / <SOS>).
ContrastiveAttribution attributeTransformerContrast(const TransformerModel &model, const TransformerAttribution &explained,
                                                    int row, const std::string &alternative,
                                                    const AttributionOptions &options = {});
