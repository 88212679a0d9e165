#pragma once

#include "engine/core/torchapi.h"

#include <vector>

// Scales all gradients together so their global L2 norm is at most `maxNorm` (as
// torch::nn::utils::clip_grad_norm_ does). Returns the norm before clipping; a non-finite
// norm is returned unchanged and nothing is scaled, so the caller can stop on divergence.
double clipGradientNorm(const std::vector<torch::Tensor> &parameters, double maxNorm);

// What clipping scales the gradients by when their global norm is `norm`: maxNorm / (norm + 1e-6)
// where that is below 1, else 1.
double clipFactor(double norm, double maxNorm);
