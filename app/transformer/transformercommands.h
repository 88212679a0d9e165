#pragma once

#include <string>
#include <vector>

// The Transformer lab's answers to `attnscope train|reverse|evaluate|compare|explain --architecture
// transformer`. Each takes the arguments after its name (--architecture taken out) and returns the
// process exit code: 0 success, 1 failure while running, 2 bad usage.
int runTransformerTrain(const std::vector<std::string> &arguments);
int runTransformerReverse(const std::vector<std::string> &arguments);
int runTransformerEvaluate(const std::vector<std::string> &arguments);
int runTransformerCompare(const std::vector<std::string> &arguments);
int runTransformerExplain(const std::vector<std::string> &arguments);
