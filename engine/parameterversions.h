#pragma once

#include "torchapi.h"

#include <utility>
#include <vector>

// What identifies a module's current weights: each parameter's storage and version counter, which
// every in-place update (an optimiser step, copy_, load) bumps. Caches of values derived from
// the weights keep one and rebuild when it changes.
using ParameterVersions = std::vector<std::pair<const void *, int64_t>>;

ParameterVersions parameterVersions(const torch::nn::Module &module);
