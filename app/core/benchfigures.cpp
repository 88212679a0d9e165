#include "app/core/benchfigures.h"

#include "engine/core/median.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

namespace benchfigures {

double medianOrZero(std::vector<double> v)
{
    return v.empty() ? 0 : ::median(std::move(v));
}

double percentile99(const std::vector<double> &sorted)
{
    if (sorted.empty())
        return 0;
    const std::size_t rank = std::size_t(std::ceil(0.99 * double(sorted.size())));
    return sorted[std::min(sorted.size() - 1, rank == 0 ? 0 : rank - 1)];
}

double mean(const std::vector<double> &v)
{
    double s = 0;
    for (double x : v)
        s += x;
    return v.empty() ? 0 : s / double(v.size());
}

const SentencePair *sentenceOfLength(const std::vector<SentencePair> &pairs, int words)
{
    for (const SentencePair &pair : pairs)
        if (pair.source.size() == std::size_t(words))
            return &pair;
    return nullptr;
}

Latency timeCalls(const std::function<bool()> &call)
{
    using Clock = std::chrono::steady_clock;
    bool correct = false;
    for (int i = 0; i < kLatencyWarmup; ++i)
        correct = call();
    Latency result;
    for (int i = 0; i < kLatencyCalls; ++i) {
        const auto start = Clock::now();
        correct = call();
        result.ms.push_back(1e3 * std::chrono::duration<double>(Clock::now() - start).count());
    }
    std::sort(result.ms.begin(), result.ms.end());
    result.outputCorrect = correct;
    return result;
}

QJsonObject latencyJson(const Latency &l)
{
    return {{"calls", int(l.ms.size())}, {"warmup", kLatencyWarmup},     {"median_ms", medianOrZero(l.ms)},
            {"p99_ms", percentile99(l.ms)}, {"mean_ms", mean(l.ms)},    {"min_ms", l.ms.empty() ? 0.0 : l.ms.front()},
            {"output_correct", l.outputCorrect}};
}

void printRow(const std::string &figure, const std::string &value)
{
    std::printf("  %-44s %s\n", figure.c_str(), value.c_str());
}

std::string format(const char *pattern, double a, double b, double c)
{
    char buffer[160];
    std::snprintf(buffer, sizeof buffer, pattern, a, b, c);
    return buffer;
}

}
