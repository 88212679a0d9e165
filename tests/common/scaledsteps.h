#pragma once

#include "engine/core/gradientclipping.h"
#include "engine/core/torchapi.h"

#include <algorithm>
#include <cmath>
#include <vector>

// An optimiser given step(clipFactor(norm, 1)) must take the steps it takes after
// clipGradientNorm(parameters, 1) and step(). Returns the largest difference between the
// parameters after three steps each way, `make(parameters)` building the optimiser; the
// gradients are large enough that clipping scales them. Build it with a large eps: Adam and
// Adagrad are otherwise all but blind to a scale that changes little from step to step.
template <typename Make>
double scaledAgainstClippedSteps(Make make)
{
    torch::manual_seed(11);
    std::vector<torch::Tensor> clipped, scaled;
    for (const std::vector<int64_t> &shape : {std::vector<int64_t>{300, 500}, std::vector<int64_t>{7}}) {
        clipped.push_back(torch::randn(shape));
        scaled.push_back(clipped.back().clone());
    }
    const auto run = [&make](const std::vector<torch::Tensor> &params, bool byScale) {
        auto optimizer = make(params);
        for (int step = 0; step < 3; ++step) {
            double squares = 0;
            for (const auto &p : params) {
                p.mutable_grad() = (p * p * 3.0 + 0.5).detach();
                squares += p.grad().pow(2).sum().item<double>();
            }
            if (byScale) {
                optimizer.step(clipFactor(std::sqrt(squares), 1.0));
            } else {
                clipGradientNorm(params, 1.0);
                optimizer.step();
            }
        }
    };
    run(clipped, false);
    run(scaled, true);
    double largest = 0;
    for (size_t i = 0; i < clipped.size(); ++i)
        largest = std::max(largest, (clipped[i] - scaled[i]).abs().max().item<double>());
    return largest;
}
