#include "app/transformer/transformerrunoptions.h"

#include "app/core/commandline.h"
#include "app/core/datasetoptions.h"
#include "engine/core/corpusdefaults.h"

#include <algorithm>

void addTransformerRunOptions(CommandLine &cl)
{
    cl.addValueOption("out");
    addDatasetOptions(cl);
    cl.addFields(transformerConfigFields());
    cl.addFields(transformerTrainingConfigFields());
}

TransformerRunOptions readTransformerRunOptions(CommandLine &cl, const std::set<std::string> &skip)
{
    TransformerRunOptions o;
    o.dataset = readDatasetOptions(cl, skip);
    cl.readFields(o.model, transformerConfigFields(), skip);
    cl.readFields(o.training, transformerTrainingConfigFields(), skip);
    if (!cl.has("data-seed"))
        o.dataset.seed = o.training.seed;
    o.out = cl.text("out");
    if (o.out.empty())
        cl.fail("--out DIR is required (the folder for the model files and the reports)");
    if (!cl.positional().empty())
        cl.fail("unexpected argument '" + cl.positional().front() + "'");
    for (const std::string &problem : {validate(o.dataset), validate(o.model), validate(o.training)})
        if (!problem.empty())
            cl.fail(problem);
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
