#pragma once

#include "engine/core/attributionmethods.h"

#include <vector>

class CommandLine;

// --method METHOD|all, --steps M and --baseline zero|unknown as the options of `explain`, with
// `occlusion` as --mode gave it and `known` the methods the model can be explained by (all of
// them by default); fails `cl` where they are wrong or do not fit together.
AttributionOptions readAttributionOptions(CommandLine &cl, RemovalMode occlusion,
                                          const std::vector<AttributionMethod> &known);
