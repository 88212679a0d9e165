#include "app/core/attributionbench.h"

#include "app/core/benchfigures.h"

#include <QJsonArray>

#include <algorithm>
#include <chrono>
#include <cmath>

using namespace benchfigures;

namespace {

constexpr int kWarmupCalls = 3;
constexpr int kTimedCalls = 15;

AttributionCost timeAttribution(const SentenceExplainer &explain, const std::string &name,
                                const std::vector<AttributionMethod> &methods, int row = -1)
{
    AttributionOptions options;
    options.methods = methods;
    options.gradientRow = row;
    AttributionCost cost{name, row, {}, 0};
    for (int call = 0; call < kWarmupCalls + kTimedCalls; ++call) {
        const auto start = std::chrono::steady_clock::now();
        const ExplainedSentence a = explain(options);
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        if (call >= kWarmupCalls)
            cost.ms.push_back(ms);
        for (std::size_t t = 0; t < a.completenessGap.size(); ++t)
            if (a.integrationDelta[t] != 0 && !std::isnan(a.integrationDelta[t]))
                cost.worstGapShare = std::max(cost.worstGapShare, a.completenessGap[t] / std::abs(a.integrationDelta[t]));
    }
    std::sort(cost.ms.begin(), cost.ms.end());
    return cost;
}

}

std::vector<AttributionCost> measureAttributionCost(const SentenceExplainer &explain,
                                                    const std::vector<AttributionMethod> &methods, int words)
{
    std::vector<AttributionCost> costs;
    for (AttributionMethod method : methods)
        costs.push_back(timeAttribution(explain, attributionMethodName(method), {method}));
    costs.push_back(timeAttribution(explain, "all", methods));
    const int middle = words / 2;
    costs.push_back(timeAttribution(explain, "ig", {AttributionMethod::IntegratedGradients}, middle));
    costs.push_back(timeAttribution(explain, "all", methods, middle));
    return costs;
}

void printAttributionCost(const std::vector<AttributionCost> &costs)
{
    for (const AttributionCost &c : costs) {
        std::string value = format("%.1f ms median, %.1f ms worst", medianOrZero(c.ms), c.ms.back());
        if (c.name == "ig")
            value += format(" (m = %.0f, completeness gap at most %.2f%%)", kDefaultIntegrationSteps, 100 * c.worstGapShare);
        printRow(c.row < 0 ? "explain that sentence: " + c.name : format("  its output step %.0f only: ", c.row + 1) + c.name,
                 value);
    }
}

QJsonObject attributionCostJson(const std::vector<AttributionCost> &costs)
{
    QJsonObject root{{"integration_steps", kDefaultIntegrationSteps}, {"calls", kTimedCalls}};
    QJsonObject oneStep;
    for (const AttributionCost &c : costs) {
        QJsonObject method{{"median_ms", medianOrZero(c.ms)}, {"worst_ms", c.ms.back()}};
        if (c.name == "ig")
            method.insert("worst_completeness_gap_share", c.worstGapShare);
        if (c.row < 0) {
            root.insert(QString::fromStdString(c.name), method);
        } else {
            oneStep.insert(QString::fromStdString(c.name), method);
            oneStep.insert("step", c.row + 1);
        }
    }
    root.insert("one_output_step", oneStep);
    return root;
}
