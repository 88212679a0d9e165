#include "engine/fast/adamupdate.h"

#include "engine/fast/vectorclones.h"

#include <cmath>

VECTOR_CLONES
void adamUpdate(float *value, float *firstMoment, float *secondMoment, const float *grad, std::int64_t count,
                const AdamCoefficients &c)
{
    for (std::int64_t k = 0; k < count; ++k) {
        const float g = grad[k] * c.gradientScale + c.weightDecay * value[k];
        const float m = c.beta1 * firstMoment[k] + c.oneMinusBeta1 * g;
        const float v = c.beta2 * secondMoment[k] + c.oneMinusBeta2 * g * g;
        firstMoment[k] = m;
        secondMoment[k] = v;
        value[k] += c.negativeStep * (m / (std::sqrt(v) / c.sqrtCorrection2 + c.eps));
    }
}
