#include "app/attention/attributionbench.h"

#include "app/attention/benchfigures.h"
#include "engine/attention/sentencepair.h"

#include <QJsonArray>

#include <algorithm>
#include <chrono>
#include <cmath>

using namespace benchfigures;

namespace {

constexpr int kWarmupCalls = 3;
constexpr int kTimedCalls = 15;

AttributionCost timeAttribution(const Seq2SeqModel &model, const SentencePair &sentence, const std::string &name,
                                const std::vector<AttributionMethod> &methods)
{
    AttributionOptions options;
    options.methods = methods;
    AttributionCost cost{name, {}, 0};
    for (int call = 0; call < kWarmupCalls + kTimedCalls; ++call) {
        const auto start = std::chrono::steady_clock::now();
        const SentenceAttribution a = attribute(model, sentence.source, options);
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        if (call >= kWarmupCalls)
            cost.ms.push_back(ms);
        for (std::size_t t = 0; t < a.completenessGap.size(); ++t)
            if (a.integrationDelta[t] != 0)
                cost.worstGapShare = std::max(cost.worstGapShare, a.completenessGap[t] / std::abs(a.integrationDelta[t]));
    }
    std::sort(cost.ms.begin(), cost.ms.end());
    return cost;
}

}

std::vector<AttributionCost> measureAttributionCost(const Seq2SeqModel &model, const SentencePair &sentence)
{
    std::vector<AttributionCost> costs;
    for (AttributionMethod method : allAttributionMethods())
        costs.push_back(timeAttribution(model, sentence, attributionMethodName(method), {method}));
    costs.push_back(timeAttribution(model, sentence, "all", allAttributionMethods()));
    return costs;
}

void printAttributionCost(const std::vector<AttributionCost> &costs)
{
    for (const AttributionCost &c : costs) {
        std::string value = format("%.1f ms median, %.1f ms worst", median(c.ms), c.ms.back());
        if (c.name == "ig")
            value += format(" (m = %.0f, completeness gap at most %.2f%%)", kDefaultIntegrationSteps, 100 * c.worstGapShare);
        printRow("explain that sentence: " + c.name, value);
    }
}

QJsonObject attributionCostJson(const std::vector<AttributionCost> &costs)
{
    QJsonObject root{{"integration_steps", kDefaultIntegrationSteps}, {"calls", kTimedCalls}};
    for (const AttributionCost &c : costs) {
        QJsonObject method{{"median_ms", median(c.ms)}, {"worst_ms", c.ms.back()}};
        if (c.name == "ig")
            method.insert("worst_completeness_gap_share", c.worstGapShare);
        root.insert(QString::fromStdString(c.name), method);
    }
    return root;
}
