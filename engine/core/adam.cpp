#include "engine/core/adam.h"

#include "engine/fast/adamupdate.h"
#include "engine/fast/parallelfor.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace {

struct AdamParameter {
    float *value, *firstMoment, *secondMoment;
    const float *grad;
    int64_t size;
};

}

Adam::Adam(std::vector<torch::Tensor> parameters, const Options &options)
    : m_parameters(std::move(parameters))
    , m_options(options)
{
    for (const auto &p : m_parameters) {
        if (p.scalar_type() != torch::kFloat || !p.is_contiguous())
            throw std::invalid_argument("Adam updates contiguous float parameters only");
        m_firstMoment.push_back(torch::zeros_like(p));
        m_secondMoment.push_back(torch::zeros_like(p));
    }
}

void Adam::step(double gradientScale)
{
    ++m_steps;
    const double correction1 = 1.0 - std::pow(m_options.beta1, double(m_steps));
    const double correction2 = 1.0 - std::pow(m_options.beta2, double(m_steps));
    const AdamCoefficients c{float(m_options.beta1),
                             float(1.0 - m_options.beta1),
                             float(m_options.beta2),
                             float(1.0 - m_options.beta2),
                             float(std::sqrt(correction2)),
                             float(m_options.eps),
                             float(m_options.weightDecay),
                             float(-m_options.learningRate / correction1),
                             float(gradientScale)};
    std::vector<AdamParameter> work;
    std::vector<torch::Tensor> grads;  // kept alive: a non-contiguous gradient is read from a copy
    int64_t total = 0;
    for (std::size_t i = 0; i < m_parameters.size(); ++i) {
        auto &p = m_parameters[i];
        if (!p.grad().defined())
            continue;
        grads.push_back(p.grad().contiguous());
        work.push_back({p.data_ptr<float>(), m_firstMoment[i].data_ptr<float>(), m_secondMoment[i].data_ptr<float>(),
                        grads.back().data_ptr<float>(), p.numel()});
        total += p.numel();
    }
    // Each thread takes an equal run of the values of all parameters, one after another.
    const int threads = partsFor(total, kValuesPerWorker, m_options.threads);
    parallelFor(
        threads,
        [&](int t) {
            const auto [begin, end] = partRange(total, t, threads);
            int64_t offset = 0;
            for (const AdamParameter &p : work) {
                const int64_t b = std::max(begin - offset, int64_t(0)), e = std::min(end - offset, p.size);
                if (b < e)
                    adamUpdate(p.value + b, p.firstMoment + b, p.secondMoment + b, p.grad + b, e - b, c);
                offset += p.size;
            }
        },
        Workers::Pooled);
    // Written through raw pointers, so their version counters must be moved on by hand: caches of
    // derived weights (the decoder's fused matrices, InferenceNet) compare versions to go stale.
    for (auto &p : m_parameters)
        if (p.grad().defined())
            torch::autograd::impl::bump_version(p);
}

void Adam::zeroGrad()
{
    for (auto &p : m_parameters)
        if (p.grad().defined())
            p.mutable_grad().zero_();
}
