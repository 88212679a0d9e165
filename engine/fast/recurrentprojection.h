#pragma once

#include "engine/core/torchapi.h"

// An affine map y_t = b + x_t · W applied at every step of a recurrence (a decoder's GRU and
// attention weights). Plain autograd computes W's gradient once per step, a multiply over only
// the batch's rows into the whole matrix, and adds the steps' matrices up; here each step's
// backward only passes its gradient on to x_t, and W's and b's gradients are computed once from
// all steps' inputs and output gradients, after the last of them. Without gradients it is addmm.
// One backward per forward pass: that backward consumes what the steps recorded.
class RecurrentProjection
{
public:
    RecurrentProjection() = default;
    // `weight` (in, out); `bias` (out) or undefined.
    RecurrentProjection(torch::Tensor weight, torch::Tensor bias);

    // bias + input · weight; for a projection without bias, `addend` (B, out) may take its place.
    torch::Tensor operator()(const torch::Tensor &input, const torch::Tensor &addend = {}) const;

    const torch::Tensor &weight() const { return m_weight; }
    const torch::Tensor &bias() const { return m_bias; }

private:
    torch::Tensor m_weight;
    torch::Tensor m_bias;
    // Created by the first step that records gradients: what the steps saw, and the tensor that
    // ties every step's backward to the one that computes the weight's gradient.
    mutable c10::intrusive_ptr<torch::CustomClassHolder> m_steps;
    mutable torch::Tensor m_token;
};
