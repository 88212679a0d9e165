#pragma once

#include "engine/transformer/transformernet.h"

// A batch decoded greedily, and every layer's attention over what was decoded.
struct GreedyDecoding {
    torch::Tensor tokens;            // (B, T) int64: the most likely token at each step; <PAD> after <EOS>
    TransformerAttention attention;  // encoderSelf (B, h, S, S); decoderSelf (B, h, T, T); cross (B, h, T, S)
};

// Greedy decoding with each decoder layer's keys and values cached, so a step costs one position,
// not the whole prefix: at most `maxSteps` tokens, fewer once every sentence has said <EOS>. The
// attention is recorded only when asked for (decoderSelf is 0 above the diagonal).
GreedyDecoding greedyDecode(TransformerNetImpl &net, const torch::Tensor &source, const torch::Tensor &sourceMask,
                            int maxSteps, bool recordAttention = false);
