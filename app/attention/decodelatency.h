#pragma once

#include "app/core/benchfigures.h"
#include "engine/core/beamsearch.h"

class Seq2SeqModel;
struct SentencePair;

// The app's own path timed: tokens in, words and attention out, stopping at <EOS>; greedy for
// width 1, else beam search. Correct when the output is the sentence's target.
benchfigures::Latency measureDecodeLatency(const Seq2SeqModel &model, const SentencePair &sentence,
                                           const BeamOptions &beam);
