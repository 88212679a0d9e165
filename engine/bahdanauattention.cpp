#include "bahdanauattention.h"

#include <limits>

BahdanauAttentionImpl::BahdanauAttentionImpl(int encoderSize, int decoderSize, int attentionSize)
    : W_h(torch::nn::LinearOptions(encoderSize, attentionSize).bias(false))
    , W_s(torch::nn::LinearOptions(decoderSize, attentionSize).bias(false))
    , v(torch::nn::LinearOptions(attentionSize, 1).bias(false))
{
    register_module("W_h", W_h);
    register_module("W_s", W_s);
    register_module("v", v);
}

torch::Tensor BahdanauAttentionImpl::keys(const torch::Tensor &encoderOutputs)
{
    return W_h(encoderOutputs);
}

std::pair<torch::Tensor, torch::Tensor> BahdanauAttentionImpl::forward(const torch::Tensor &state,
                                                                       const torch::Tensor &keys,
                                                                       const torch::Tensor &values,
                                                                       const torch::Tensor &mask)
{
    auto energy = torch::tanh(keys + W_s(state).unsqueeze(1));
    auto scores = v(energy).squeeze(2).masked_fill(mask.logical_not(), -std::numeric_limits<float>::infinity());
    auto weights = torch::softmax(scores, 1);
    auto context = torch::bmm(weights.unsqueeze(1), values).squeeze(1);
    return {context, weights};
}
