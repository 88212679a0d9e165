#include "engine/core/attributionmethods.h"

#include <stdexcept>

namespace {

struct MethodNames {
    AttributionMethod method;
    const char *name;
    const char *title;
};

const MethodNames kMethodNames[] = {
    {AttributionMethod::Attention, "attention", "Attention"},
    {AttributionMethod::Saliency, "saliency", "Saliency"},
    {AttributionMethod::InputTimesGradient, "inputxgrad", "Input × gradient"},
    {AttributionMethod::IntegratedGradients, "ig", "Integrated gradients"},
    {AttributionMethod::Occlusion, "occlusion", "Occlusion"},
    {AttributionMethod::Rollout, "rollout", "Attention rollout"},
};

}  // namespace

const std::vector<AttributionMethod> &allAttributionMethods()
{
    static const std::vector<AttributionMethod> methods = {
        AttributionMethod::Attention, AttributionMethod::Saliency, AttributionMethod::InputTimesGradient,
        AttributionMethod::IntegratedGradients, AttributionMethod::Occlusion};
    return methods;
}

const char *attributionMethodName(AttributionMethod method)
{
    return kMethodNames[int(method)].name;
}

const char *attributionMethodTitle(AttributionMethod method)
{
    return kMethodNames[int(method)].title;
}

bool parseAttributionMethod(const std::string &name, AttributionMethod *method)
{
    for (const MethodNames &m : kMethodNames)
        if (name == m.name) {
            *method = m.method;
            return true;
        }
    return false;
}

bool attributionReadsGradients(AttributionMethod method)
{
    return method == AttributionMethod::Saliency || method == AttributionMethod::InputTimesGradient ||
           method == AttributionMethod::IntegratedGradients;
}

const char *integrationBaselineName(IntegrationBaseline baseline)
{
    return baseline == IntegrationBaseline::Zero ? "zero" : "unknown";
}

bool parseIntegrationBaseline(const std::string &name, IntegrationBaseline *baseline)
{
    for (IntegrationBaseline b : {IntegrationBaseline::Zero, IntegrationBaseline::Unknown})
        if (name == integrationBaselineName(b)) {
            *baseline = b;
            return true;
        }
    return false;
}

const char *removalModeName(RemovalMode mode)
{
    return mode == RemovalMode::Drop ? "drop" : "unknown";
}

std::vector<std::string> removeWord(const std::vector<std::string> &words, std::size_t i, RemovalMode mode)
{
    std::vector<std::string> changed = words;
    if (mode == RemovalMode::Drop)
        changed.erase(changed.begin() + std::ptrdiff_t(i));
    else
        changed[i] = "<UNK>";
    return changed;
}

bool parseRemovalMode(const std::string &name, RemovalMode *mode)
{
    for (RemovalMode m : {RemovalMode::Drop, RemovalMode::Unknown})
        if (name == removalModeName(m)) {
            *mode = m;
            return true;
        }
    return false;
}

void validateAttributionOptions(const AttributionOptions &options)
{
    if (options.integrationSteps < 1 || options.integrationSteps > kMaxIntegrationSteps)
        throw std::invalid_argument("integrated gradients take 1 to " + std::to_string(kMaxIntegrationSteps) +
                                    " steps, got " + std::to_string(options.integrationSteps));
    if (options.methods.empty())
        throw std::invalid_argument("choose at least one attribution method");
}

std::vector<double> AttributionMap::row(int r) const
{
    const auto begin = scores.begin() + std::ptrdiff_t(r) * columns;
    return std::vector<double>(begin, begin + columns);
}
