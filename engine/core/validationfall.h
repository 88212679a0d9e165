#pragma once

#include "engine/core/epochstats.h"

#include <string>

// Past kSteadyFrom, validation exact match should not fall by more than kSteadyFall from one
// epoch to the next. When it does, the run says so with the figures that explain a fall.
constexpr double kSteadyFrom = 0.5;
constexpr double kSteadyFall = 0.05;

// Empty when `current` held; else "val exact fell 12.3 points (lr 0.0012, gradient norm 3.41
// before clipping)", the norm left out when it was not measured.
std::string validationFall(const EpochStats &previous, const EpochStats &current);
