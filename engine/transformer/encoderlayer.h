#pragma once

#include "engine/transformer/multiheadattention.h"

// One encoder layer: self-attention over the source, then the feed-forward block, each with its
// residual and layer norm (pre-LN or post-LN). Submodule names are LibTorch's
// TransformerEncoderLayer's, so weights copy across by name.
class EncoderLayerImpl : public torch::nn::Module
{
public:
    EncoderLayerImpl(int dModel, int heads, int feedForward, double dropout, bool preNorm);

    // x (B, S, d), maskBias (B, 1, 1, S): 0 on real tokens, -inf on padding. Returns the output and
    // the self-attention's weights (B, h, S, S).
    std::pair<torch::Tensor, torch::Tensor> forward(const torch::Tensor &x, const torch::Tensor &maskBias);

    MultiHeadAttention self_attn{nullptr};
    torch::nn::Linear linear1{nullptr};
    torch::nn::Linear linear2{nullptr};
    torch::nn::LayerNorm norm1{nullptr};
    torch::nn::LayerNorm norm2{nullptr};

private:
    double m_dropout;
    bool m_preNorm;
};
TORCH_MODULE(EncoderLayer);
