#pragma once

#include "engine/core/torchapi.h"

// A float tensor's elements, for the hand-written loops that read and write tensors as arrays.
inline float *floatData(const torch::Tensor &t)
{
    return t.data_ptr<float>();
}
