#pragma once

#include "engine/attention/attribution.h"
#include "engine/core/datasetconfig.h"
#include "engine/core/faithfulnessreport.h"
#include "engine/core/sentencepair.h"

#include <functional>
#include <vector>

class Seq2SeqModel;

// Every sentence of `data` (its source) explained with `options` and measured, in one report
// (engine/core/faithfulnessreport): a sentence's erasures by every method are scored in one batch
// (split only where it would not fit in memory). Attention is measured only with attention.
// Sentences of fewer than two words are left out (attribute() refuses them). `keepGoing` is asked
// before each sentence; when it says no, the report covers the sentences done so far.
FaithfulnessReport measureFaithfulness(const Seq2SeqModel &model, const std::vector<SentencePair> &data, Task task,
                                       const AttributionOptions &options = {},
                                       const std::function<bool()> &keepGoing = {});
