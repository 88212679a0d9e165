#pragma once

#include "engine/core/dropoutstream.h"
#include "engine/core/torchapi.h"

// What every Transformer layer is built of.

torch::nn::LayerNorm layerNorm(int dModel);

// The position-wise feed-forward block of a Transformer layer: linear2(dropout(relu(linear1(x)))),
// the same at every position (Vaswani et al. 2017, 3.3).
torch::Tensor positionwiseFeedForward(const torch::Tensor &x, torch::nn::Linear &linear1, torch::nn::Linear &linear2,
                                      double dropout, bool training);

// A sublayer with its residual connection and layer norm: pre-LN adds f(norm(x)) to x; post-LN
// (the 2017 paper's order) normalises x + f(x). Dropout falls on f's output.
template <typename Sublayer>
torch::Tensor residual(const torch::Tensor &x, torch::nn::LayerNorm &norm, bool preNorm, double dropout,
                       bool training, Sublayer &&sublayer)
{
    if (preNorm)
        return x + dropoutFromStream(sublayer(norm(x)), dropout, training);
    return norm(x + dropoutFromStream(sublayer(x), dropout, training));
}
