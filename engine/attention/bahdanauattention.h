#pragma once

#include "engine/core/torchapi.h"

// The additive score's attention for one decoder step, as one hand-written autograd node (speed
// code: the decoder's step; tests/common/referencenet.h has the same op by op): from the query
// (B, A; rows may be strided), keys (B, S, A), values (B, S, H), the score weights v (1, A) and the
// mask as a bias (B, S: 0 on real tokens, -inf on padding), e_i = v . tanh(query + key_i), and
// returns context (B, H) and weights (B, S); padded positions get exactly 0.
std::pair<torch::Tensor, torch::Tensor> additiveAttention(const torch::Tensor &query, const torch::Tensor &keys,
                                                          const torch::Tensor &values, const torch::Tensor &scoreWeight,
                                                          const torch::Tensor &maskBias);

// One row of additiveAttention() on raw floats: from the query (A), keys (S × A), values (S × H),
// v (A) and the mask's bias (S, or null for none), the energies tanh(query + key_i) (S × A) and
// the weights (S) kept for the backward pass, and the context added to `context` (H).
void additiveAttentionRow(const float *query, const float *keys, const float *values, const float *v,
                          const float *maskBias, float *energy, float *weights, float *context, int64_t positions,
                          int64_t attention, int64_t hidden);

// Its gradients for one row from those of the context (H) and of the weights (S, or null): the
// query's added to `dQuery` (A), v's to `dV` (A, or null), and the values' (S × H) and keys'
// (S × A) written, or added with `accumulate`. `scratch` holds S floats.
void additiveAttentionRowBackward(const float *weights, const float *energy, const float *values, const float *v,
                                  const float *dContext, const float *dWeights, float *dValues, float *dKeys,
                                  float *dQuery, float *dV, bool accumulate, float *scratch, int64_t positions,
                                  int64_t attention, int64_t hidden);

// Additive attention (Bahdanau et al. 2015): e_i = v^T tanh(W_s s + W_h h_i), masked softmax.
// W_h h depends only on the encoder, so keys() is computed once per batch, not per step.
class BahdanauAttentionImpl : public torch::nn::Module
{
public:
    BahdanauAttentionImpl(int encoderSize, int decoderSize, int attentionSize);

    torch::Tensor keys(const torch::Tensor &encoderOutputs);  // (B, S, A)
    // additiveAttention() with the query W_s s and keys().
    std::pair<torch::Tensor, torch::Tensor> attend(const torch::Tensor &query, const torch::Tensor &keys,
                                                   const torch::Tensor &values, const torch::Tensor &maskBias);

    torch::nn::Linear W_h{nullptr};
    torch::nn::Linear W_s{nullptr};
    torch::nn::Linear v{nullptr};
};
TORCH_MODULE(BahdanauAttention);
