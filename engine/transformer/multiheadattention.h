#pragma once

#include "engine/core/torchapi.h"

// Keys and values a decoder layer has already projected: its self-attention's grow by one
// position per generated token; its cross-attention's are the encoder's, projected once.
struct AttentionCache {
    torch::Tensor keys;    // (B, h, S, d_k)
    torch::Tensor values;  // (B, h, S, d_k)
    bool filled() const { return keys.defined(); }
};

// Multi-head scaled dot-product attention (Vaswani et al. 2017, 3.2.2), batch first:
// softmax(Q K^T / sqrt(d_k) + mask) V per head, heads concatenated and projected. The packed
// in-projection (3d x d, rows q, k, v) is LibTorch's MultiheadAttention layout, so its weights copy
// across as they are.
class MultiHeadAttentionImpl : public torch::nn::Module
{
public:
    MultiHeadAttentionImpl(int dModel, int heads);

    // query (B, T, d), keyValue (B, S, d); maskBias broadcast to (B, h, T, S): 0 where a query may
    // look, -inf where it may not (padding, the future). Returns the output (B, T, d) and the
    // weights (B, h, T, S); a masked key gets exactly 0.
    std::pair<torch::Tensor, torch::Tensor> forward(const torch::Tensor &query, const torch::Tensor &keyValue,
                                                    const torch::Tensor &maskBias);
    // Decoding: the query attends over `cache`. With `append`, the keys and values of `keyValue`
    // (one new position) are added to the cache first (self-attention); without, the cache is
    // filled from `keyValue` once and then reused (cross-attention).
    std::pair<torch::Tensor, torch::Tensor> forwardCached(const torch::Tensor &query, const torch::Tensor &keyValue,
                                                          const torch::Tensor &maskBias, AttentionCache &cache,
                                                          bool append);

    int heads() const { return m_heads; }
    int headSize() const { return m_headSize; }

    torch::Tensor inProjWeight;  // (3d, d): W_Q, W_K, W_V stacked
    torch::Tensor inProjBias;    // (3d)
    torch::nn::Linear outProj{nullptr};

private:
    torch::Tensor project(const torch::Tensor &x, int part) const;  // (B, h, L, d_k)
    std::pair<torch::Tensor, torch::Tensor> attend(const torch::Tensor &q, const torch::Tensor &k,
                                                   const torch::Tensor &v, const torch::Tensor &maskBias);

    int m_heads;
    int m_headSize;
};
TORCH_MODULE(MultiHeadAttention);
