#pragma once

#include "app/core/labrunoptions.h"
#include "engine/attention/modelconfig.h"
#include "engine/attention/trainingconfig.h"
#include "engine/core/datasetconfig.h"

#include <set>
#include <string>


// What `train` and `compare` read from their command line (app/core/labrunoptions.h).
using RunOptions = LabRunOptions<ModelConfig, TrainingConfig>;

void addRunOptions(CommandLine &cl);
// The data seed is --seed's unless --data-seed is given. Fields whose key is in `skip` keep their
// defaults, for the caller to read. Problems, validate()'s too, go to `cl`.
RunOptions readRunOptions(CommandLine &cl, const std::set<std::string> &skip = {});
