#include "adam.h"

#include <cmath>

Adam::Adam(std::vector<torch::Tensor> parameters, const Options &options)
    : m_parameters(std::move(parameters))
    , m_options(options)
{
    for (const auto &p : m_parameters) {
        m_firstMoment.push_back(torch::zeros_like(p));
        m_secondMoment.push_back(torch::zeros_like(p));
    }
}

void Adam::step()
{
    torch::NoGradGuard noGrad;
    ++m_steps;
    const double correction1 = 1.0 - std::pow(m_options.beta1, double(m_steps));
    const double correction2 = 1.0 - std::pow(m_options.beta2, double(m_steps));
    for (std::size_t i = 0; i < m_parameters.size(); ++i) {
        auto &p = m_parameters[i];
        if (!p.grad().defined())
            continue;
        auto grad = p.grad();
        if (m_options.weightDecay != 0)
            grad = grad.add(p, m_options.weightDecay);
        m_firstMoment[i].mul_(m_options.beta1).add_(grad, 1.0 - m_options.beta1);
        m_secondMoment[i].mul_(m_options.beta2).addcmul_(grad, grad, 1.0 - m_options.beta2);
        auto denominator = (m_secondMoment[i].sqrt() / std::sqrt(correction2)).add_(m_options.eps);
        p.addcdiv_(m_firstMoment[i], denominator, -m_options.learningRate / correction1);
    }
}

void Adam::zeroGrad()
{
    for (auto &p : m_parameters)
        if (p.grad().defined())
            p.mutable_grad().zero_();
}
