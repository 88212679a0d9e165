#include "engine/core/learningrateschedule.h"

#include <algorithm>
#include <cmath>

LearningRateSchedule::LearningRateSchedule(double base, int warmupSteps, double perEpoch)
    : m_base(base)
    , m_warmupSteps(std::max(0, warmupSteps))
    , m_perEpoch(perEpoch)
{
}

double LearningRateSchedule::at(long step, double epochs) const
{
    const double warm = step < m_warmupSteps ? double(step + 1) / double(m_warmupSteps) : 1.0;
    return m_base * warm * std::pow(m_perEpoch, epochs);
}
