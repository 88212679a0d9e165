#include "engine/core/runfigures.h"

#include "engine/core/median.h"

double trainingSecondsToExactMatch(const std::vector<EpochStats> &history, double target)
{
    double seconds = 0;
    for (const EpochStats &stats : history) {
        seconds += stats.seconds;
        if (stats.valExactMatch >= target)
            return seconds;
    }
    return -1;
}

double medianSamplesPerSecond(const std::vector<EpochStats> &history)
{
    if (history.empty())
        return 0;
    std::vector<double> rates;
    for (const EpochStats &stats : history)
        rates.push_back(stats.samplesPerSecond);
    return median(rates);
}
