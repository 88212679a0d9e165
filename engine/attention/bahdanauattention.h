#pragma once

#include "engine/core/torchapi.h"

// Additive attention (Bahdanau et al. 2015): e_i = v^T tanh(W_s s + W_h h_i), masked softmax.
// W_h h depends only on the encoder, so keys() is computed once per batch, not per step.
class BahdanauAttentionImpl : public torch::nn::Module
{
public:
    BahdanauAttentionImpl(int encoderSize, int decoderSize, int attentionSize);

    torch::Tensor keys(const torch::Tensor &encoderOutputs);  // (B, S, A)
    // From the query W_s s (B, A; rows may be strided), keys (B, S, A), values (B, S, encoderSize)
    // and the mask as a bias (B, S: 0 on real tokens, -inf on padding), as one hand-written
    // autograd node (speed code: the decoder's step; tests/common/referencedecoder.h has the same
    // op by op). Returns context (B, encoderSize) and weights (B, S); padded positions get exactly 0.
    std::pair<torch::Tensor, torch::Tensor> attend(const torch::Tensor &query, const torch::Tensor &keys,
                                                   const torch::Tensor &values, const torch::Tensor &maskBias);

    torch::nn::Linear W_h{nullptr};
    torch::nn::Linear W_s{nullptr};
    torch::nn::Linear v{nullptr};
};
TORCH_MODULE(BahdanauAttention);
