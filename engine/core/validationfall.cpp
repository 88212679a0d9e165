#include "engine/core/validationfall.h"

#include <cstdio>

std::string validationFall(const EpochStats &previous, const EpochStats &current)
{
    const double fall = previous.valExactMatch - current.valExactMatch;
    if (previous.valExactMatch < kSteadyFrom || fall <= kSteadyFall)
        return {};
    char text[160];
    if (current.gradientNorm > 0)
        std::snprintf(text, sizeof text, "val exact fell %.1f points (lr %.3g, gradient norm %.3g before clipping)",
                      100 * fall, current.learningRate, current.gradientNorm);
    else
        std::snprintf(text, sizeof text, "val exact fell %.1f points (lr %.3g)", 100 * fall, current.learningRate);
    return text;
}
