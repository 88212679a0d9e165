#pragma once

#include "engine/core/dataset.h"

#include <optional>
#include <vector>

class CommandLine;
class RunFolder;

// What a compare command trains every variant on, and the probe sentences it measures each
// length with, from the trained lengths to beyond them.
struct CompareData {
    Dataset data;
    std::vector<SentencePair> probe;
};

// The checks every compare command makes of its data options: generated sentences only (a corpus
// cannot be probed at any length) and a probe reaching at least the trained lengths.
void checkCompareData(CommandLine &cl, const DatasetConfig &config, int probeMaxLength);

// The data and the probe built, `folder` created and a line saying what they hold printed; nullopt
// after printing why not.
std::optional<CompareData> prepareCompareData(const DatasetConfig &config, int probeMaxLength, int probeCount,
                                              RunFolder &folder);
