#pragma once

#include "engine/core/epochstats.h"

#include <vector>

// Training seconds (validation excluded) until validation exact match first reached `target`
// (0..1), counting whole epochs; -1 when no epoch reached it.
double trainingSecondsToExactMatch(const std::vector<EpochStats> &history, double target);
// The median of the epochs' training samples per second; 0 without epochs.
double medianSamplesPerSecond(const std::vector<EpochStats> &history);
