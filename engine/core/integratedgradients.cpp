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

torch::Tensor gradientSumWeights(int64_t points)
{
    const int64_t midpoints = points - 2;
    torch::Tensor weights = torch::zeros({2, points});
    if (midpoints > 0)
        weights[0].narrow(0, 0, midpoints).fill_(1.0 / double(midpoints));
    weights[1][points - 1] = 1.0;
    return weights;
}

LineGradients joinSlices(const std::vector<LineGradients> &slices)
{
    if (slices.size() == 1)
        return slices.front();
    std::vector<torch::Tensor> values;
    torch::Tensor sums = torch::zeros_like(slices.front().sums);
    for (const LineGradients &slice : slices) {
        values.push_back(slice.values);
        sums.add_(slice.sums);
    }
    return {torch::cat(values, 1), sums};
}

torch::Tensor gradientMethodScores(AttributionMethod method, const torch::Tensor &sums, const torch::Tensor &embedded,
                                   const torch::Tensor &baseline, int64_t words)
{
    const torch::Tensor atInput = sums.select(1, 1).narrow(1, 0, words);  // (steps, words, E)
    const torch::Tensor e = embedded.narrow(0, 0, words);
    if (method == AttributionMethod::Saliency)
        return atInput.norm(2, {2});
    if (method == AttributionMethod::InputTimesGradient)
        return (atInput * e).sum(2);
    const torch::Tensor meanGradient = sums.select(1, 0).narrow(1, 0, words);
    return (meanGradient * (e - baseline.narrow(0, 0, words))).sum(2);
}
