#include "engine/core/integratedgradients.h"

#include <algorithm>

std::vector<double> integrationPoints(const std::vector<AttributionMethod> &methods, int integrationSteps)
{
    std::vector<double> alphas;
    if (std::find(methods.begin(), methods.end(), AttributionMethod::IntegratedGradients) != methods.end())
        for (int k = 0; k < integrationSteps; ++k)
            alphas.push_back((k + 0.5) / integrationSteps);
    alphas.push_back(0);
    alphas.push_back(1);
    return alphas;
}

torch::Tensor gradientMethodScores(AttributionMethod method, const torch::Tensor &gradients,
                                   const torch::Tensor &embedded, const torch::Tensor &baseline, int64_t words)
{
    const int64_t m = gradients.size(1) - 2;
    const torch::Tensor atInput = gradients.select(1, m + 1).narrow(1, 0, words);  // (steps, words, E)
    const torch::Tensor e = embedded.narrow(0, 0, words);
    if (method == AttributionMethod::Saliency)
        return atInput.norm(2, {2});
    if (method == AttributionMethod::InputTimesGradient)
        return (atInput * e).sum(2);
    const torch::Tensor meanGradient = gradients.narrow(1, 0, m).mean(1).narrow(1, 0, words);
    return (meanGradient * (e - baseline.narrow(0, 0, words))).sum(2);
}
