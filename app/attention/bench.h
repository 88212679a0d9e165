#pragma once

#include <string>
#include <vector>

// `attnscope bench [--threads N] [--json OUT] [--quick]`: measures, on the default configuration,
// training samples/s, wall time to 99% test exact match, single-sentence greedy latency and peak
// memory. Prints a table, optionally writes JSON; returns the process exit code. With
// `--corpus FILE`, runCorpusBench() instead.
int runBench(const std::vector<std::string> &arguments);
