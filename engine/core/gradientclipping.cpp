#include "engine/core/gradientclipping.h"

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
    const double scale = maxNorm / (total + 1e-6);
    if (scale < 1.0)
        for (const auto &p : parameters)
            if (p.grad().defined())
                p.grad().mul_(scale);
    return total;
}
