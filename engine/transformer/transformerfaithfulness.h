#pragma once

#include "engine/core/attributionmethods.h"
#include "engine/core/datasetconfig.h"
#include "engine/core/faithfulnessreport.h"
#include "engine/core/sentencepair.h"

#include <functional>
#include <string>
#include <vector>

class TransformerModel;

// log P(y_t | y_<t, source) of `outputTokens` (as decoded, <EOS> included when the model said it),
// the decoder fed them (teacher forcing), for each of `sources` (words, read through the
// vocabulary; <EOS> is added): sources x output steps. The sources run as padded batches, as few
// as memory allows, in eval mode.
std::vector<std::vector<double>> transformerOutputStepLogProbs(const TransformerModel &model,
                                                               const std::vector<std::vector<std::string>> &sources,
                                                               const std::vector<std::string> &outputTokens);

// Every sentence of `data` (its source, cut to the model's positions as explain cuts it) explained
// by attributeTransformer() with `options`, rollout one more method when asked, and measured in
// one report (engine/core/faithfulnessreport). Sentences of fewer than two words are left out.
// `keepGoing` is asked before each sentence; when it says no, the report covers the sentences done
// so far. Throws std::invalid_argument for options out of range.
FaithfulnessReport measureTransformerFaithfulness(const TransformerModel &model, const std::vector<SentencePair> &data,
                                                  Task task, const AttributionOptions &options = {},
                                                  const std::function<bool()> &keepGoing = {});
