#include "engine/attention/locationattention.h"

#include "engine/attention/bahdanauattention.h"

LocationAttentionImpl::LocationAttentionImpl(int encoderSize, int decoderSize, int attentionSize)
    : W_h(torch::nn::LinearOptions(encoderSize, attentionSize).bias(false))
    , W_s(torch::nn::LinearOptions(decoderSize, attentionSize).bias(false))
    , v(torch::nn::LinearOptions(attentionSize, 1).bias(false))
    , F(torch::nn::Conv1dOptions(/*in_channels=*/1, kFilters, kFilterWidth).padding(kFilterWidth / 2).bias(false))
    , U(torch::nn::LinearOptions(kFilters, attentionSize))
{
    register_module("W_h", W_h);
    register_module("W_s", W_s);
    register_module("v", v);
    register_module("F", F);
    register_module("U", U);
}

torch::Tensor LocationAttentionImpl::keys(const torch::Tensor &encoderOutputs)
{
    return W_h(encoderOutputs);
}

torch::Tensor LocationAttentionImpl::locationTerm(const torch::Tensor &previousWeights)
{
    // The convolution pads with zeros, and padded positions hold weight 0 (a masked softmax), so a
    // sentence's location features are the same in a padded batch as alone.
    const auto features = F(previousWeights.unsqueeze(1)).transpose(1, 2);  // (B, S, k)
    return U(features);
}

std::pair<torch::Tensor, torch::Tensor> LocationAttentionImpl::attend(const torch::Tensor &query,
                                                                      const torch::Tensor &keys,
                                                                      const torch::Tensor &previousWeights,
                                                                      const torch::Tensor &values,
                                                                      const torch::Tensor &maskBias)
{
    return additiveAttention(query, keys + locationTerm(previousWeights), values, v->weight, maskBias);
}
