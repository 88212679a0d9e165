#pragma once

#include "engine/attention/modelconfig.h"
#include "engine/attention/trainingconfig.h"
#include "engine/core/datasetconfig.h"

#include <set>
#include <string>

class CommandLine;

// What `train` and `compare` read from their command line: every field of the three
// configurations (--key as in their field tables), the words of --words-file and the folder --out.
struct RunOptions {
    DatasetConfig dataset;
    ModelConfig model;
    TrainingConfig training;
    std::string out;
};

void addRunOptions(CommandLine &cl);
// The data seed is --seed's unless --data-seed is given. Fields whose key is in `skip` keep their
// defaults, for the caller to read. Problems, validate()'s too, go to `cl`.
RunOptions readRunOptions(CommandLine &cl, const std::set<std::string> &skip = {});
