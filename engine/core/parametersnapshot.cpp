#include "engine/core/parametersnapshot.h"

std::vector<torch::Tensor> copyParameters(const torch::nn::Module &module)
{
    std::vector<torch::Tensor> copy;
    for (const torch::Tensor &parameter : module.parameters())
        copy.push_back(parameter.detach().clone());
    return copy;
}

void restoreParameters(torch::nn::Module &module, const std::vector<torch::Tensor> &copy)
{
    torch::NoGradGuard noGrad;
    std::vector<torch::Tensor> parameters = module.parameters();
    for (std::size_t i = 0; i < parameters.size(); ++i)
        parameters[i].copy_(copy[i]);
}
