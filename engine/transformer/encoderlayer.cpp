#include "engine/transformer/encoderlayer.h"

#include "engine/transformer/sublayers.h"

EncoderLayerImpl::EncoderLayerImpl(int dModel, int heads, int feedForward, double dropout, bool preNorm)
    : self_attn(register_module("self_attn", MultiHeadAttention(dModel, heads))),
      linear1(register_module("linear1", torch::nn::Linear(dModel, feedForward))),
      linear2(register_module("linear2", torch::nn::Linear(feedForward, dModel))),
      norm1(register_module("norm1", layerNorm(dModel))),
      norm2(register_module("norm2", layerNorm(dModel))),
      m_dropout(dropout), m_preNorm(preNorm)
{
}

std::pair<torch::Tensor, torch::Tensor> EncoderLayerImpl::forward(const torch::Tensor &x, const torch::Tensor &maskBias)
{
    torch::Tensor weights;
    torch::Tensor y = residual(x, norm1, m_preNorm, m_dropout, is_training(), [&](const torch::Tensor &in) {
        auto [out, w] = self_attn(in, in, maskBias);
        weights = w;
        return out;
    });
    y = residual(y, norm2, m_preNorm, m_dropout, is_training(), [&](const torch::Tensor &in) {
        return positionwiseFeedForward(in, linear1, linear2, m_dropout, is_training());
    });
    return {y, weights};
}
