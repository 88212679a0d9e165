#pragma once

#include <string>

// `attnscope bench --corpus FILE`: the default model on the sentences of a text file, with the
// corpus defaults (and so the pointer): training samples/s over `measuredEpochs` after a warm-up
// epoch, greedy and beam-5 latency for a test sentence of the median length, peak memory, and
// how the parameters split between the vocabulary's layers and the rest. Prints a table,
// optionally writes JSON to `jsonPath`; returns the process exit code.
int runCorpusBench(const std::string &path, int threads, int measuredEpochs, const std::string &jsonPath);
