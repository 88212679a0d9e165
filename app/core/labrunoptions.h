#pragma once

#include "app/core/commandline.h"
#include "app/core/datasetoptions.h"
#include "engine/core/configfield.h"
#include "engine/core/datasetconfig.h"

#include <set>
#include <string>
#include <vector>

// What a lab's `train` and `compare` read from their command line: the data options
// (app/core/datasetoptions.h), every field of the lab's model and training tables (--key as in
// the tables) and the folder --out.
template <typename Model, typename Training>
struct LabRunOptions {
    DatasetConfig dataset;
    Model model;
    Training training;
    std::string out;
};

template <typename Model, typename Training>
void addLabRunOptions(CommandLine &cl, const std::vector<ConfigField<Model>> &modelFields,
                      const std::vector<ConfigField<Training>> &trainingFields)
{
    cl.addValueOption("out");
    addDatasetOptions(cl);
    cl.addFields(modelFields);
    cl.addFields(trainingFields);
}

// The data seed is --seed's unless --data-seed is given. Fields whose key is in `skip` keep their
// defaults, for the caller to read. Problems, validate()'s too, go to `cl`.
template <typename Model, typename Training>
LabRunOptions<Model, Training> readLabRunOptions(CommandLine &cl, const std::vector<ConfigField<Model>> &modelFields,
                                                 const std::vector<ConfigField<Training>> &trainingFields,
                                                 const std::set<std::string> &skip)
{
    LabRunOptions<Model, Training> o;
    o.dataset = readDatasetOptions(cl, skip);
    cl.readFields(o.model, modelFields, skip);
    cl.readFields(o.training, trainingFields, skip);
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
