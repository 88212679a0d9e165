#pragma once

#include "engine/core/torchapi.h"

#include <vector>

// A copy of a module's parameters, in parameters() order: what a trainer keeps of its best epoch.
std::vector<torch::Tensor> copyParameters(const torch::nn::Module &module);
// Puts a copy taken by copyParameters() back into the same module.
void restoreParameters(torch::nn::Module &module, const std::vector<torch::Tensor> &copy);
