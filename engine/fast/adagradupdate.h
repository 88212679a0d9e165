#pragma once

#include <cstdint>

// The per-value arithmetic of one Adagrad step, as torch::optim::Adagrad's tensor ops do it with
// no weight decay and no learning-rate decay: g = gradient · gradientScale (global-norm clipping),
// sum += g², value −= lr · g / (√sum + eps). Kept apart from torch's headers so that it can be
// built with -fno-math-errno: the square roots then vectorise, for the machine's widest registers.
void adagradUpdate(float *value, float *sum, const float *grad, std::int64_t count, float negativeLearningRate,
                   float eps, float gradientScale);
