#pragma once

#include "engine/transformer/transformercheckpoint.h"

class CommandLine;

// The checkpoint a command decodes with: --model FILE (no Transformer is bundled). Throws
// TransformerCheckpointError for a file it cannot read, saying which lab's file it is when it is
// another lab's.
TransformerCheckpoint checkpointToUse(const CommandLine &cl);
