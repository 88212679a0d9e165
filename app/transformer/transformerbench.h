#pragma once

#include <string>
#include <vector>

// `attnscope bench --architecture transformer [--threads N] [--json OUT] [training options]`: trains
// the default Transformer on the default task and measures training samples/s, wall time to 99% test
// exact match, the test exact match after the epochs, and single-sentence greedy latency. Prints
// a table, optionally writes JSON with the RNN bench's keys; returns the process exit code.
int runTransformerBench(const std::vector<std::string> &arguments);
std::string transformerBenchHelp();
