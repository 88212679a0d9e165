#pragma once

#include "engine/core/epochstats.h"

#include <string>

// How the commands that train print their figures.

// "99.10%" for 0.991.
std::string percentText(double share);
// One epoch's line: "epoch   3 | train loss 0.1234 | val loss 0.2345 | val exact  97.50%<extra> |
// 12.3 s | 812 samples/s", then "| best" for the best epoch so far and, when `previous` (the epoch
// before) is given and validation fell, why (validationfall.h). `extra` follows the exact match.
std::string epochLine(const EpochStats &e, bool best, const std::string &extra = {},
                      const EpochStats *previous = nullptr);
