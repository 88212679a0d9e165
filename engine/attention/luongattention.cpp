#include "engine/attention/luongattention.h"

LuongAttentionImpl::LuongAttentionImpl(int size, bool general)
    : W_c(torch::nn::LinearOptions(2 * size, size).bias(false))
{
    if (general)
        W_a = register_module("W_a", torch::nn::Linear(torch::nn::LinearOptions(size, size).bias(false)));
    register_module("W_c", W_c);
}

torch::Tensor LuongAttentionImpl::keys(const torch::Tensor &encoderOutputs)
{
    return W_a ? W_a(encoderOutputs) : encoderOutputs;
}

LuongAttentionOutput LuongAttentionImpl::forward(const torch::Tensor &state, const torch::Tensor &keys,
                                                 const torch::Tensor &values, const torch::Tensor &maskBias)
{
    const auto scores = torch::bmm(keys, state.unsqueeze(2)).squeeze(2) + maskBias;
    const auto weights = torch::softmax(scores, 1);
    const auto context = torch::bmm(weights.unsqueeze(1), values).squeeze(1);
    return {context, weights, torch::tanh(W_c(torch::cat({context, state}, 1)))};
}
