#include "engine/core/sgd.h"

Sgd::Sgd(std::vector<torch::Tensor> parameters, const Options &options)
    : m_parameters(std::move(parameters)), m_velocity(m_parameters.size()), m_options(options)
{
}

void Sgd::step(double gradientScale)
{
    torch::NoGradGuard noGradients;
    for (std::size_t i = 0; i < m_parameters.size(); ++i) {
        torch::Tensor &p = m_parameters[i];
        if (!p.grad().defined())
            continue;
        torch::Tensor direction = p.grad() * gradientScale;
        if (m_options.weightDecay != 0)
            direction.add_(p, m_options.weightDecay);
        if (m_options.momentum != 0) {
            if (m_velocity[i].defined())
                m_velocity[i].mul_(m_options.momentum).add_(direction);
            else
                m_velocity[i] = direction.clone();
            direction = m_velocity[i];
        }
        p.add_(direction, -m_options.learningRate);
    }
}

void Sgd::zeroGrad()
{
    for (auto &p : m_parameters)
        if (p.grad().defined())
            p.mutable_grad().zero_();
}
