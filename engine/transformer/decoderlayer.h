#pragma once

#include "engine/transformer/multiheadattention.h"

// What one decoder layer's step reads back while decoding: its self-attention's keys and values of
// the tokens so far, and its cross-attention's of the source.
struct DecoderLayerCache {
    AttentionCache self;
    AttentionCache cross;
};

// One decoder layer's output and its two attentions' weights (B, h, T, T) and (B, h, T, S).
struct DecoderLayerOutput {
    torch::Tensor output;
    torch::Tensor selfWeights;
    torch::Tensor crossWeights;
};

// One decoder layer: causal self-attention, cross-attention to the encoder's output, then the
// feed-forward block, each with its residual and layer norm (pre-LN or post-LN). Submodule names
// are LibTorch's TransformerDecoderLayer's, so weights copy across by name.
class DecoderLayerImpl : public torch::nn::Module
{
public:
    DecoderLayerImpl(int dModel, int heads, int feedForward, double dropout, bool preNorm);

    // x (B, T, d), memory (B, S, d); selfMaskBias (T, T) hides the future, memoryMaskBias
    // (B, 1, 1, S) the source's padding.
    DecoderLayerOutput forward(const torch::Tensor &x, const torch::Tensor &memory, const torch::Tensor &selfMaskBias,
                               const torch::Tensor &memoryMaskBias);
    // One new position x (B, 1, d) against the cached keys and values, which it extends.
    DecoderLayerOutput step(const torch::Tensor &x, const torch::Tensor &memory, const torch::Tensor &memoryMaskBias,
                            DecoderLayerCache &cache);

    MultiHeadAttention self_attn{nullptr};
    MultiHeadAttention multihead_attn{nullptr};
    torch::nn::Linear linear1{nullptr};
    torch::nn::Linear linear2{nullptr};
    torch::nn::LayerNorm norm1{nullptr};
    torch::nn::LayerNorm norm2{nullptr};
    torch::nn::LayerNorm norm3{nullptr};

private:
    template <typename SelfAttention, typename CrossAttention>
    DecoderLayerOutput run(const torch::Tensor &x, SelfAttention &&selfAttention, CrossAttention &&crossAttention);

    double m_dropout;
    bool m_preNorm;
};
TORCH_MODULE(DecoderLayer);
