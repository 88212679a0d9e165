#include "app/attention/runoptions.h"

#include "app/core/commandline.h"
#include "app/core/datasetoptions.h"

void addRunOptions(CommandLine &cl)
{
    cl.addValueOption("out");
    addDatasetOptions(cl);
    cl.addFields(modelConfigFields());
    cl.addFields(trainingConfigFields());
}

RunOptions readRunOptions(CommandLine &cl, const std::set<std::string> &skip)
{
    RunOptions o;
    o.dataset = readDatasetOptions(cl, skip);
    cl.readFields(o.model, modelConfigFields(), skip);
    cl.readFields(o.training, trainingConfigFields(), skip);
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
    return o;
}
