#include "engine/core/adagrad.h"

#include "engine/fast/adagradupdate.h"
#include "engine/fast/parallelfor.h"

#include <algorithm>
#include <stdexcept>

namespace {

struct AdagradParameter {
    float *value, *sum;
    const float *grad;
    int64_t size;
};

}

Adagrad::Adagrad(std::vector<torch::Tensor> parameters, const Options &options)
    : m_parameters(std::move(parameters))
    , m_options(options)
{
    for (const auto &p : m_parameters) {
        if (p.scalar_type() != torch::kFloat || !p.is_contiguous())
            throw std::invalid_argument("Adagrad updates contiguous float parameters only");
        m_sums.push_back(torch::zeros_like(p));
    }
}

void Adagrad::zeroGrad()
{
    for (auto &p : m_parameters)
        if (p.grad().defined())
            p.mutable_grad().zero_();
}

void Adagrad::step(double gradientScale)
{
    std::vector<AdagradParameter> work;
    std::vector<torch::Tensor> grads;  // kept alive: a non-contiguous gradient is read from a copy
    int64_t total = 0;
    for (std::size_t i = 0; i < m_parameters.size(); ++i) {
        auto &p = m_parameters[i];
        if (!p.grad().defined())
            continue;
        grads.push_back(p.grad().contiguous());
        work.push_back({p.data_ptr<float>(), m_sums[i].data_ptr<float>(), grads.back().data_ptr<float>(), p.numel()});
        total += p.numel();
    }
    const float negativeLearningRate = float(-m_options.learningRate), eps = float(m_options.eps),
                scale = float(gradientScale);
    // Each thread takes an equal run of the values of all parameters, one after another.
    const int threads = partsFor(total, kValuesPerWorker, m_options.threads);
    parallelFor(
        threads,
        [&](int t) {
            const auto [begin, end] = partRange(total, t, threads);
            int64_t offset = 0;
            for (const AdagradParameter &p : work) {
                const int64_t b = std::max(begin - offset, int64_t(0)), e = std::min(end - offset, p.size);
                if (b < e)
                    adagradUpdate(p.value + b, p.sum + b, p.grad + b, e - b, negativeLearningRate, eps, scale);
                offset += p.size;
            }
        },
        Workers::Pooled);
    // Written through raw pointers: their version counters are moved on by hand, as Adam does.
    for (auto &p : m_parameters)
        if (p.grad().defined())
            torch::autograd::impl::bump_version(p);
}
