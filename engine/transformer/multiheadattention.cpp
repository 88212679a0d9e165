#include "engine/transformer/multiheadattention.h"

#include <cmath>
#include <stdexcept>

MultiHeadAttentionImpl::MultiHeadAttentionImpl(int dModel, int heads)
    : m_heads(heads), m_headSize(heads > 0 ? dModel / heads : 0)
{
    if (heads <= 0 || dModel % heads != 0)
        throw std::invalid_argument("the model width must be a multiple of the number of heads");
    inProjWeight = register_parameter("in_proj_weight", torch::empty({3 * dModel, dModel}));
    inProjBias = register_parameter("in_proj_bias", torch::zeros({3 * dModel}));
    outProj = register_module("out_proj", torch::nn::Linear(dModel, dModel));
    torch::nn::init::xavier_uniform_(inProjWeight);
    torch::nn::init::zeros_(outProj->bias);
}

torch::Tensor MultiHeadAttentionImpl::project(const torch::Tensor &x, int part) const
{
    const int64_t d = inProjWeight.size(1);
    const torch::Tensor y = torch::nn::functional::linear(x, inProjWeight.narrow(0, part * d, d),
                                                          inProjBias.narrow(0, part * d, d));
    return y.view({x.size(0), x.size(1), m_heads, m_headSize}).transpose(1, 2);
}

std::pair<torch::Tensor, torch::Tensor> MultiHeadAttentionImpl::attend(const torch::Tensor &q, const torch::Tensor &k,
                                                                       const torch::Tensor &v,
                                                                       const torch::Tensor &maskBias)
{
    torch::Tensor scores = torch::matmul(q, k.transpose(-2, -1)) / std::sqrt(double(m_headSize));
    if (maskBias.defined())
        scores = scores + maskBias;
    const torch::Tensor weights = torch::softmax(scores, -1);
    const torch::Tensor mixed = torch::matmul(weights, v);  // (B, h, T, d_k)
    const torch::Tensor joined = mixed.transpose(1, 2).reshape({q.size(0), q.size(2), m_heads * m_headSize});
    return {outProj(joined), weights};
}

std::pair<torch::Tensor, torch::Tensor> MultiHeadAttentionImpl::forward(const torch::Tensor &query,
                                                                        const torch::Tensor &keyValue,
                                                                        const torch::Tensor &maskBias)
{
    // One product for the projections that share an input: all three in self-attention, the
    // keys' and values' in cross-attention. Fewer, larger products train faster.
    const int64_t d = inProjWeight.size(1);
    const auto heads = [&](const torch::Tensor &projected, int64_t parts) {
        return projected.view({projected.size(0), projected.size(1), parts, m_heads, m_headSize})
            .permute({2, 0, 3, 1, 4})
            .unbind(0);
    };
    if (query.is_same(keyValue)) {
        const std::vector<torch::Tensor> qkv = heads(torch::nn::functional::linear(query, inProjWeight, inProjBias), 3);
        return attend(qkv[0], qkv[1], qkv[2], maskBias);
    }
    const std::vector<torch::Tensor> kv = heads(
        torch::nn::functional::linear(keyValue, inProjWeight.narrow(0, d, 2 * d), inProjBias.narrow(0, d, 2 * d)), 2);
    return attend(project(query, 0), kv[0], kv[1], maskBias);
}

std::pair<torch::Tensor, torch::Tensor> MultiHeadAttentionImpl::forwardCached(const torch::Tensor &query,
                                                                              const torch::Tensor &keyValue,
                                                                              const torch::Tensor &maskBias,
                                                                              AttentionCache &cache, bool append)
{
    if (append || !cache.filled()) {
        const torch::Tensor k = project(keyValue, 1);
        const torch::Tensor v = project(keyValue, 2);
        const bool extend = append && cache.filled();
        cache.keys = extend ? torch::cat({cache.keys, k}, 2) : k;
        cache.values = extend ? torch::cat({cache.values, v}, 2) : v;
    }
    return attend(project(query, 0), cache.keys, cache.values, maskBias);
}
