#pragma once

#include "engine/core/torchapi.h"

struct LuongAttentionOutput {
    torch::Tensor context;      // c_t (B, H)
    torch::Tensor weights;      // (B, S); exactly 0 on padding
    torch::Tensor attentional;  // h̃_t (B, H)
};

// Global attention of Luong et al. 2015, scored with the current decoder state s_t (after its GRU
// step): dot e_i = s_tᵀ h_i, general e_i = s_tᵀ W_a h_i; a = masked softmax(e), c_t = Σ a_i h_i,
// and the attentional state h̃_t = tanh(W_c [c_t; s_t]), which the output layer reads. No biases,
// as in the paper. W_a h_i depends only on the encoder, so keys() is computed once per batch.
class LuongAttentionImpl : public torch::nn::Module
{
public:
    LuongAttentionImpl(int size, bool general);

    torch::Tensor keys(const torch::Tensor &encoderOutputs);  // (B, S, H): W_a h, or h itself for dot
    // state (B, H), keys and values (B, S, H), maskBias (B, S): 0 on tokens, -inf on padding.
    LuongAttentionOutput forward(const torch::Tensor &state, const torch::Tensor &keys, const torch::Tensor &values,
                                 const torch::Tensor &maskBias);

    torch::nn::Linear W_a{nullptr};  // general only
    torch::nn::Linear W_c{nullptr};
};
TORCH_MODULE(LuongAttention);
