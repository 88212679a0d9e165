#include "engine/fast/adagradupdate.h"

#include "engine/fast/vectorclones.h"

#include <cmath>

VECTOR_CLONES
void adagradUpdate(float *value, float *sum, const float *grad, std::int64_t count, float negativeLearningRate,
                   float eps, float gradientScale)
{
    for (std::int64_t k = 0; k < count; ++k) {
        const float g = grad[k] * gradientScale;
        sum[k] += g * g;
        value[k] += negativeLearningRate * g / (std::sqrt(sum[k]) + eps);
    }
}
