#include "app/core/attributionarguments.h"

#include "app/core/commandline.h"

#include <algorithm>
#include <string>

namespace {

// "attention, saliency, ... or all": what --method takes.
std::string methodChoices(const std::vector<AttributionMethod> &known)
{
    std::string choices;
    for (AttributionMethod method : known)
        choices += std::string(attributionMethodName(method)) + ", ";
    return choices.substr(0, choices.size() - 2) + " or all";
}

}  // namespace

AttributionOptions readAttributionOptions(CommandLine &cl, RemovalMode occlusion,
                                          const std::vector<AttributionMethod> &known)
{
    AttributionOptions options;
    options.occlusion = occlusion;
    options.methods = known;
    if (cl.has("method") && cl.text("method") != "all") {
        AttributionMethod method;
        if (parseAttributionMethod(cl.text("method"), &method) &&
            std::find(known.begin(), known.end(), method) != known.end())
            options.methods = {method};
        else
            cl.fail("--method must be " + methodChoices(known) + ", got '" + cl.text("method") + "'");
    }
    options.integrationSteps = cl.integer("steps", kDefaultIntegrationSteps, 1, kMaxIntegrationSteps);
    if (cl.has("baseline") && !parseIntegrationBaseline(cl.text("baseline"), &options.baseline))
        cl.fail("--baseline must be zero or unknown, got '" + cl.text("baseline") + "'");
    const bool integrated = std::count(options.methods.begin(), options.methods.end(),
                                       AttributionMethod::IntegratedGradients) > 0;
    for (const char *option : {"steps", "baseline"})
        if (cl.has(option) && !integrated)
            cl.fail(std::string("--") + option + " sets integrated gradients: it goes with --method ig or all");
    return options;
}
