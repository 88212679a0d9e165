#pragma once

#include "engine/core/torchapi.h"

struct LuongAttentionOutput {
    torch::Tensor context;      // c_t (B, H)
    torch::Tensor weights;      // (B, S); exactly 0 on padding
    torch::Tensor attentional;  // h̃_t (B, H)
};

// How LuongAttention scores: s_tᵀ h_i, s_tᵀ W_a h_i, or s_tᵀ h_i / √H.
enum class LuongScore { Dot, General, ScaledDot };

// Global attention of Luong et al. 2015, scored with the current decoder state s_t (after its GRU
// step): dot e_i = s_tᵀ h_i, general e_i = s_tᵀ W_a h_i, and scaled dot e_i = s_tᵀ h_i / √H as
// Vaswani et al. 2017 scale it (a dot product of H terms grows like √H and would push the softmax
// into its flat tails); a = masked softmax(e), c_t = Σ a_i h_i, and the attentional state
// h̃_t = tanh(W_c [c_t; s_t]), which the output layer reads. No biases, as in the paper. The key
// (W_a h_i, or h_i / √H) depends only on the encoder, so keys() is computed once per batch.
class LuongAttentionImpl : public torch::nn::Module
{
public:
    LuongAttentionImpl(int size, LuongScore score);

    // (B, S, H): W_a h for general, h / √H for scaled dot, h itself for dot.
    torch::Tensor keys(const torch::Tensor &encoderOutputs);
    // state (B, H), keys and values (B, S, H), maskBias (B, S): 0 on tokens, -inf on padding.
    LuongAttentionOutput forward(const torch::Tensor &state, const torch::Tensor &keys, const torch::Tensor &values,
                                 const torch::Tensor &maskBias);

    torch::nn::Linear W_a{nullptr};  // general only
    torch::nn::Linear W_c{nullptr};

private:
    double m_keyScale;  // 1 / √H for scaled dot, else 1
};
TORCH_MODULE(LuongAttention);
