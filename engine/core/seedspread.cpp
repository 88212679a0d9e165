#include "engine/core/seedspread.h"

#include <algorithm>
#include <numeric>

Spread spreadOf(const std::vector<double> &values)
{
    Spread s;
    if (values.empty())
        return s;
    const auto [low, high] = std::minmax_element(values.begin(), values.end());
    s.mean = std::accumulate(values.begin(), values.end(), 0.0) / double(values.size());
    s.min = *low;
    s.max = *high;
    s.runs = int(values.size());
    return s;
}

std::map<int, Spread> spreadByKey(const std::vector<std::map<int, double>> &runs)
{
    std::map<int, std::vector<double>> values;
    for (const auto &run : runs)
        for (const auto &[key, value] : run)
            values[key].push_back(value);
    std::map<int, Spread> spreads;
    for (const auto &[key, list] : values)
        spreads[key] = spreadOf(list);
    return spreads;
}
