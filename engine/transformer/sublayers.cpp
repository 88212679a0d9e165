#include "engine/transformer/sublayers.h"

torch::nn::LayerNorm layerNorm(int dModel)
{
    return torch::nn::LayerNorm(torch::nn::LayerNormOptions({dModel}));
}

torch::Tensor positionwiseFeedForward(const torch::Tensor &x, torch::nn::Linear &linear1, torch::nn::Linear &linear2,
                                      double dropout, bool training)
{
    return linear2(dropoutFromStream(torch::relu(linear1(x)), dropout, training));
}
