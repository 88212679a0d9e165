#include "app/core/epochline.h"

#include "engine/core/validationfall.h"

#include <cstdio>

std::string percentText(double share)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.2f%%", 100.0 * share);
    return buffer;
}

std::string epochLine(const EpochStats &e, bool best, const std::string &extra, const EpochStats *previous)
{
    const std::string fall = previous ? validationFall(*previous, e) : std::string();
    char line[512];
    std::snprintf(line, sizeof line,
                  "epoch %3d | train loss %.4f | val loss %.4f | val exact %7s%s | %6.1f s | %6.0f samples/s%s%s%s",
                  e.epoch, e.trainLoss, e.valLoss, percentText(e.valExactMatch).c_str(), extra.c_str(), e.seconds,
                  e.samplesPerSecond, best ? " | best" : "", fall.empty() ? "" : " | ", fall.c_str());
    return line;
}
