#pragma once

#include "app/core/labrunoptions.h"
#include "engine/core/datasetconfig.h"
#include "engine/transformer/transformerconfig.h"
#include "engine/transformer/transformertrainingconfig.h"

#include <set>
#include <string>


// What `train` and `compare --architecture transformer` read from their command line
// (app/core/labrunoptions.h).
using TransformerRunOptions = LabRunOptions<TransformerConfig, TransformerTrainingConfig>;

void addTransformerRunOptions(CommandLine &cl);
// The data seed is --seed's unless --data-seed is given. Fields whose key is in `skip` keep their
// defaults, for the caller to read. Problems, validate()'s too, go to `cl`, and so does a
// --max-positions too short for the longest generated sentence (positionsProblem()).
TransformerRunOptions readTransformerRunOptions(CommandLine &cl, const std::set<std::string> &skip = {});

// Empty when the model's positions reach sentences of `words` words: the encoder reads the words
// and <EOS>, and greedy decoding takes up to words + 2 steps. Otherwise the message.
std::string positionsProblem(const TransformerConfig &model, int words);
// The longest sentence the model can decode: its positions less the two it adds.
int longestSentence(const TransformerConfig &model);

// The probe of evaluate and compare: generated sentences past the trained lengths (probeSet()).
constexpr int kProbeSentences = 2000;
// The longest probe sentence allowed: what the model's positions reach, within kLongestSentence.
int longestProbe(const TransformerConfig &model);
// Unless given: 3 x the longest trained sentence, within longestProbe().
int defaultProbeMaxLength(const TransformerConfig &model, int trainedMax);
