#pragma once

#include "engine/core/optimizer.h"
#include "engine/core/torchapi.h"

#include <vector>

// Stochastic gradient descent as torch::optim::SGD does it (no dampening, no Nesterov): L2 weight
// decay added to the gradient, then with momentum mu a velocity v = mu v + g (v = g at the first
// step), and p -= lr v.
class Sgd : public Optimizer
{
public:
    struct Options {
        double learningRate = 0.01;
        double momentum = 0.0;
        double weightDecay = 0.0;
    };

    Sgd(std::vector<torch::Tensor> parameters, const Options &options);
    void step(double gradientScale = 1.0) override;
    void zeroGrad() override;
    void setLearningRate(double lr) override { m_options.learningRate = lr; }

private:
    std::vector<torch::Tensor> m_parameters;
    std::vector<torch::Tensor> m_velocity;  // undefined until a parameter's first step
    Options m_options;
};
