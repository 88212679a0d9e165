#pragma once

#include "engine/core/datasetconfig.h"
#include "engine/core/sentencepair.h"
#include "engine/transformer/transformermodel.h"

#include <string>
#include <vector>

// How the Transformer's commands print sentences and scores, in the RNN's commands' words.

// The output's words, <EOS> left out.
std::string outputText(const TransformerOutput &output);
// `Input: "a b c"  Output: "c b a"  Reference: "c b a"  match`: the pair decoded by `model`.
std::string exampleLine(const TransformerModel &model, const SentencePair &pair);
// "Test exact match: 99.10% (1000 sentences, greedy, in padded batches) | token accuracy: 99.80%"
// and the exact match by length on the next line, a * on the lengths past `trainedMax`; `what`
// names the set ("Test").
std::string scoreText(const std::string &what, const TransformerScore &score, int trainedMax = kLongestSentence);
// Exact match by length, one row per length (a * marks those past `trainedMax`), one column per
// score: how each run does inside and beyond the trained lengths.
std::string lengthTable(const std::vector<std::string> &labels, const std::vector<const TransformerScore *> &scores,
                        int trainedMax);
