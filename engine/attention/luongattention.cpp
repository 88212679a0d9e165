#include "engine/attention/luongattention.h"

#include <cmath>

LuongAttentionImpl::LuongAttentionImpl(int size, LuongScore score)
    : W_c(torch::nn::LinearOptions(2 * size, size).bias(false))
    , m_keyScale(score == LuongScore::ScaledDot ? 1.0 / std::sqrt(double(size)) : 1.0)
{
    if (score == LuongScore::General)
        W_a = register_module("W_a", torch::nn::Linear(torch::nn::LinearOptions(size, size).bias(false)));
    register_module("W_c", W_c);
}

torch::Tensor LuongAttentionImpl::keys(const torch::Tensor &encoderOutputs)
{
    if (W_a)
        return W_a(encoderOutputs);
    return m_keyScale == 1.0 ? encoderOutputs : encoderOutputs * m_keyScale;
}

LuongAttentionOutput LuongAttentionImpl::forward(const torch::Tensor &state, const torch::Tensor &keys,
                                                 const torch::Tensor &values, const torch::Tensor &maskBias)
{
    const auto scores = torch::bmm(keys, state.unsqueeze(2)).squeeze(2) + maskBias;
    const auto weights = torch::softmax(scores, 1);
    const auto context = torch::bmm(weights.unsqueeze(1), values).squeeze(1);
    return {context, weights, torch::tanh(W_c(torch::cat({context, state}, 1)))};
}
