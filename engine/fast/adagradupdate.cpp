#include "engine/fast/adagradupdate.h"

#include <cmath>

void adagradUpdate(float *value, float *sum, const float *grad, std::int64_t count, float negativeLearningRate,
                   float eps)
{
    for (std::int64_t k = 0; k < count; ++k) {
        const float g = grad[k];
        sum[k] += g * g;
        value[k] += negativeLearningRate * g / (std::sqrt(sum[k]) + eps);
    }
}
