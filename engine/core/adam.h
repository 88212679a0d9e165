#pragma once

#include "engine/core/optimizer.h"
#include "engine/core/torchapi.h"

#include <vector>

// Adam (Kingma & Ba 2015) written out: moments, bias correction, eps, and L2 weight decay added
// to the gradient as torch::optim::Adam does, so the two can be checked step by step. Parameters
// must be contiguous float tensors (std::invalid_argument otherwise).
class Adam : public Optimizer
{
public:
    struct Options {
        double learningRate = 1e-3;
        double beta1 = 0.9;
        double beta2 = 0.999;
        double eps = 1e-8;
        double weightDecay = 0.0;
        int threads = 1;  // the update is shared out over this many threads when it is large
    };

    Adam(std::vector<torch::Tensor> parameters, const Options &options);
    void step(double gradientScale = 1.0) override;
    void zeroGrad() override;
    void setLearningRate(double lr) override { m_options.learningRate = lr; }

private:
    std::vector<torch::Tensor> m_parameters;
    std::vector<torch::Tensor> m_firstMoment;
    std::vector<torch::Tensor> m_secondMoment;
    Options m_options;
    long m_steps = 0;
};
