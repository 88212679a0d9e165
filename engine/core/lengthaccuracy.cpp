#include "engine/core/lengthaccuracy.h"

std::map<int, double> exactMatchByLength(const std::map<int, LengthAccuracy> &byLength)
{
    std::map<int, double> exact;
    for (const auto &[length, bucket] : byLength)
        if (bucket.total > 0)
            exact[length] = double(bucket.correct) / bucket.total;
    return exact;
}
