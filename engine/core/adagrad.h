#pragma once

#include "engine/core/optimizer.h"
#include "engine/core/torchapi.h"

#include <vector>

// Adagrad (Duchi, Hazan & Singer 2011) written out as torch::optim::Adagrad does it with its
// defaults (no learning-rate decay, no weight decay, the accumulator starting at 0), so the two
// can be checked step by step: each value's squared gradients summed, its step the learning rate
// over the root of that sum. Parameters must be contiguous float tensors (std::invalid_argument
// otherwise).
class Adagrad : public Optimizer
{
public:
    struct Options {
        double learningRate = 1e-2;
        double eps = 1e-10;
        int threads = 1;  // the update is shared out over this many threads when it is large
    };

    Adagrad(std::vector<torch::Tensor> parameters, const Options &options);
    // With `gradientScale`, as Adam::step.
    void step(double gradientScale = 1.0) override;
    void zeroGrad() override;
    void setLearningRate(double lr) override { m_options.learningRate = lr; }

private:
    std::vector<torch::Tensor> m_parameters;
    std::vector<torch::Tensor> m_sums;
    Options m_options;
};
