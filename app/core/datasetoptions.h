#pragma once

#include "engine/core/datasetconfig.h"

#include <set>
#include <string>

class CommandLine;

// The data options of every command that trains on the sequence tasks (reverse, copy): every field
// of DatasetConfig (--key as in its table), and the words of generated sentences from --words
// digits|default or --words-file FILE.
void addDatasetOptions(CommandLine &cl);
// The words and the fields given, except those whose key is in `skip`. Problems go to `cl`; the
// config is not validated, and its seed is the field's (callers make --seed its default).
DatasetConfig readDatasetOptions(CommandLine &cl, const std::set<std::string> &skip = {});
// Their lines for --help: the words, then the fields, --data-seed defaulting to --seed.
std::string datasetOptionLines();
