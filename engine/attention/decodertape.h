#pragma once

#include "engine/core/torchapi.h"

#include <vector>

class Seq2SeqNetImpl;

// The decoder's teacher-forced pass, written out by hand for points that share a sentence and its
// decode, and differentiated for several output steps in one reverse sweep: each step's
// cotangent joins the sweep at its step and all go back together, where autograd would run a
// backward pass per step through a graph of small per-step ops. GRU cells, Bahdanau attention, no
// pointer, eval mode (decoderTapeSupports()).
bool decoderTapeSupports(const Seq2SeqNetImpl &net);

struct DecoderTapeGradients {
    torch::Tensor values;    // (K, P): f at each step asked
    torch::Tensor dOutputs;  // (K, P, S, H): f's gradient w.r.t. the encoder's outputs
    torch::Tensor dFinals;   // (K, layers × directions, P, H / directions): w.r.t. its final states
};

// From the encoder's outputs (P, S, H) and final states (layers × directions, P, H / directions),
// as EncoderTape gives them, and `target` (1, T): <SOS> then the decode. f_k = log P(y_t) at step
// t = steps[k] (ascending), minus log P(contrast[k]) where that is >= 0.
DecoderTapeGradients decoderTapeGradients(Seq2SeqNetImpl &net, const torch::Tensor &outputs,
                                          const torch::Tensor &finals, const torch::Tensor &target,
                                          const std::vector<int> &steps, const std::vector<int64_t> &contrast);
