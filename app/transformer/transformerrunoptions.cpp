#include "app/transformer/transformerrunoptions.h"

#include "engine/core/corpusdefaults.h"

#include <algorithm>

void addTransformerRunOptions(CommandLine &cl)
{
    addLabRunOptions(cl, transformerConfigFields(), transformerTrainingConfigFields());
}

TransformerRunOptions readTransformerRunOptions(CommandLine &cl, const std::set<std::string> &skip)
{
    TransformerRunOptions o = readLabRunOptions(cl, transformerConfigFields(), transformerTrainingConfigFields(), skip);
    if (cl.ok() && o.dataset.corpusPath.empty())
        if (const std::string problem = positionsProblem(o.model, generatedMaxLength(o.dataset)); !problem.empty())
            cl.fail(problem);
    return o;
}

int longestSentence(const TransformerConfig &model)
{
    return model.maxPositions - 2;
}

int longestProbe(const TransformerConfig &model)
{
    return std::min(longestSentence(model), kLongestSentence);
}

int defaultProbeMaxLength(const TransformerConfig &model, int trainedMax)
{
    constexpr int kTimesTrained = 3;  // the "up to 3x the trained length"
    return std::min(kTimesTrained * trainedMax, longestProbe(model));
}

std::string positionsProblem(const TransformerConfig &model, int words)
{
    if (words <= longestSentence(model))
        return {};
    return "--max-positions " + std::to_string(model.maxPositions) + " is too short for sentences of " +
           std::to_string(words) + " words, which take " + std::to_string(words + 2) +
           " positions (decoding them takes up to " + std::to_string(words + 2) + " steps)";
}
