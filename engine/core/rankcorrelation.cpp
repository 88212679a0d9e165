#include "engine/core/rankcorrelation.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace {

std::vector<double> ranks(const std::vector<double> &values)
{
    std::vector<std::size_t> order(values.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return values[a] < values[b]; });
    std::vector<double> out(values.size());
    for (std::size_t i = 0; i < order.size();) {
        std::size_t j = i;
        while (j + 1 < order.size() && values[order[j + 1]] == values[order[i]])
            ++j;
        const double average = (double(i) + double(j)) / 2 + 1;  // tied values share their mean rank
        for (std::size_t k = i; k <= j; ++k)
            out[order[k]] = average;
        i = j + 1;
    }
    return out;
}

}

double spearmanCorrelation(const std::vector<double> &a, const std::vector<double> &b)
{
    const double undefined = std::numeric_limits<double>::quiet_NaN();
    if (a.size() != b.size() || a.size() < 2)
        return undefined;
    const std::vector<double> ra = ranks(a), rb = ranks(b);
    const double mean = (double(a.size()) + 1) / 2;
    double cov = 0, va = 0, vb = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        cov += (ra[i] - mean) * (rb[i] - mean);
        va += (ra[i] - mean) * (ra[i] - mean);
        vb += (rb[i] - mean) * (rb[i] - mean);
    }
    return va > 0 && vb > 0 ? cov / std::sqrt(va * vb) : undefined;
}
