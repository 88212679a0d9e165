#include "engine/core/gradientclipping.h"

#include <algorithm>
#include <cmath>

double clipGradientNorm(const std::vector<torch::Tensor> &parameters, double maxNorm)
{
    torch::NoGradGuard noGrad;
    std::vector<torch::Tensor> norms;
    for (const auto &p : parameters)
        if (p.grad().defined())
            norms.push_back(p.grad().norm(2));
    if (norms.empty())
        return 0.0;
    const double total = torch::stack(norms).norm(2).item<double>();
    if (!std::isfinite(total))
        return total;
    const double scale = clipFactor(total, maxNorm);
    if (scale < 1.0)
        for (const auto &p : parameters)
            if (p.grad().defined())
                p.grad().mul_(scale);
    return total;
}

double clipFactor(double norm, double maxNorm)
{
    return std::min(1.0, maxNorm / (norm + 1e-6));
}
