#pragma once

#include "engine/core/torchapi.h"

// Location-aware attention (Chorowski et al. 2015): the previous step's weights a_{t-1}, convolved
// with learned filters F, enter the additive score,
//   f = F * a_{t-1},   e_i = v^T tanh(W_s s + W_h h_i + U f_i + b),   a = masked softmax(e),
// so a step can score "one to the left of where I looked last" as well as content. W_h h depends
// only on the encoder (keys(), once per batch); U f + b is recomputed every step.
class LocationAttentionImpl : public torch::nn::Module
{
public:
    static constexpr int kFilters = 10;     // k, as in the paper
    static constexpr int kFilterWidth = 5;  // r: positions i-2..i+2 of a_{t-1} reach f_i

    LocationAttentionImpl(int encoderSize, int decoderSize, int attentionSize);

    torch::Tensor keys(const torch::Tensor &encoderOutputs);  // W_h h (B, S, A)
    // U (F * previous) + b (B, S, A) for the previous weights (B, S).
    torch::Tensor locationTerm(const torch::Tensor &previousWeights);
    // As BahdanauAttentionImpl::attend, with the keys moved by locationTerm(previousWeights).
    std::pair<torch::Tensor, torch::Tensor> attend(const torch::Tensor &query, const torch::Tensor &keys,
                                                   const torch::Tensor &previousWeights, const torch::Tensor &values,
                                                   const torch::Tensor &maskBias);

    torch::nn::Linear W_h{nullptr};
    torch::nn::Linear W_s{nullptr};
    torch::nn::Linear v{nullptr};
    torch::nn::Conv1d F{nullptr};  // (k, 1, r), no bias: b is U's
    torch::nn::Linear U{nullptr};  // (A, k) with the bias b (A)
};
TORCH_MODULE(LocationAttention);
