#include "engine/transformer/decoderlayer.h"

#include "engine/transformer/sublayers.h"

DecoderLayerImpl::DecoderLayerImpl(int dModel, int heads, int feedForward, double dropout, bool preNorm)
    : self_attn(register_module("self_attn", MultiHeadAttention(dModel, heads))),
      multihead_attn(register_module("multihead_attn", MultiHeadAttention(dModel, heads))),
      linear1(register_module("linear1", torch::nn::Linear(dModel, feedForward))),
      linear2(register_module("linear2", torch::nn::Linear(feedForward, dModel))),
      norm1(register_module("norm1", layerNorm(dModel))), norm2(register_module("norm2", layerNorm(dModel))),
      norm3(register_module("norm3", layerNorm(dModel))), m_dropout(dropout), m_preNorm(preNorm)
{
}

template <typename SelfAttention, typename CrossAttention>
DecoderLayerOutput DecoderLayerImpl::run(const torch::Tensor &x, SelfAttention &&selfAttention,
                                         CrossAttention &&crossAttention)
{
    DecoderLayerOutput result;
    torch::Tensor y = residual(x, norm1, m_preNorm, m_dropout, is_training(), [&](const torch::Tensor &in) {
        auto [out, weights] = selfAttention(in);
        result.selfWeights = weights;
        return out;
    });
    y = residual(y, norm2, m_preNorm, m_dropout, is_training(), [&](const torch::Tensor &in) {
        auto [out, weights] = crossAttention(in);
        result.crossWeights = weights;
        return out;
    });
    result.output = residual(y, norm3, m_preNorm, m_dropout, is_training(), [&](const torch::Tensor &in) {
        return positionwiseFeedForward(in, linear1, linear2, m_dropout, is_training());
    });
    return result;
}

DecoderLayerOutput DecoderLayerImpl::forward(const torch::Tensor &x, const torch::Tensor &memory,
                                             const torch::Tensor &selfMaskBias, const torch::Tensor &memoryMaskBias)
{
    return run(
        x, [&](const torch::Tensor &in) { return self_attn(in, in, selfMaskBias); },
        [&](const torch::Tensor &in) { return multihead_attn(in, memory, memoryMaskBias); });
}

DecoderLayerOutput DecoderLayerImpl::step(const torch::Tensor &x, const torch::Tensor &memory,
                                          const torch::Tensor &memoryMaskBias, DecoderLayerCache &cache)
{
    return run(
        x, [&](const torch::Tensor &in) { return self_attn->forwardCached(in, in, {}, cache.self, true); },
        [&](const torch::Tensor &in) {
            return multihead_attn->forwardCached(in, memory, memoryMaskBias, cache.cross, false);
        });
}
