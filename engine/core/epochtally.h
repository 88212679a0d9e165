#pragma once

#include "engine/core/elapsed.h"
#include "engine/core/epochstats.h"

// An epoch's batches as a trainer counts them, from its start: what each batch reports, and the
// EpochStats the epoch comes to (validation left to the trainer).
class EpochTally
{
public:
    EpochTally(int epoch, int batches) : m_epoch(epoch), m_batches(batches) {}

    int samples() const { return m_samples; }
    void setLearningRate(double rate) { m_learningRate = rate; }
    // One batch of `rows` sentences trained: its mean loss and its gradient norm before clipping.
    BatchProgress add(int batch, int rows, double loss, double norm)
    {
        m_lossSum += loss * rows;
        m_normSum += norm;
        m_samples += rows;
        return {m_epoch, batch, m_batches, loss, m_samples / secondsSince(m_start)};
    }
    EpochStats stats() const
    {
        EpochStats stats;
        stats.epoch = m_epoch;
        stats.seconds = secondsSince(m_start);
        stats.trainLoss = m_lossSum / m_samples;
        stats.samplesPerSecond = m_samples / stats.seconds;
        stats.learningRate = m_learningRate;
        stats.gradientNorm = m_normSum / double(m_batches);
        return stats;
    }

private:
    int m_epoch;
    int m_batches;
    std::chrono::steady_clock::time_point m_start = std::chrono::steady_clock::now();
    double m_lossSum = 0;
    double m_normSum = 0;
    double m_learningRate = 0;
    int m_samples = 0;
};
