#pragma once

#include "engine/attention/seq2seqmodel.h"

class CommandLine;

// The model a command decodes with: --model FILE, or the one bundled into the program, so that an
// installed attnscope works from any folder. Throws CheckpointError for a file it cannot read,
// saying which lab's file it is when it is another lab's.
Seq2SeqModel modelToUse(const CommandLine &cl);
// The model bundled into the program, the one the app opens; throws CheckpointError without one.
Seq2SeqModel bundledModel();
