#pragma once

// The learning rate at every optimiser step: a linear warm-up from base / warmup to base over
// the first `warmupSteps` steps, then a decay by `perEpoch` per epoch applied a little at every
// step rather than at once at the epoch's end, so the weights an epoch ends on were taken at a
// small rate. scale() multiplies every later rate (the decay after an epoch that did not help).
class LearningRateSchedule
{
public:
    LearningRateSchedule(double base, int warmupSteps, double perEpoch);
    // The rate for optimiser step `step` (from 0), taken after `epochs` epochs' worth of samples.
    double at(long step, double epochs) const;
    void scale(double factor) { m_base *= factor; }

private:
    double m_base;
    int m_warmupSteps;
    double m_perEpoch;
};
