#pragma once

#include <string>
#include <vector>

// The attention lab's `attnscope` subcommands. Each takes the arguments after its name and returns the process
// exit code: 0 success, 1 failure while running, 2 bad usage.
int runTrain(const std::vector<std::string> &arguments);
int runReverse(const std::vector<std::string> &arguments);
int runEvaluate(const std::vector<std::string> &arguments);
int runCompare(const std::vector<std::string> &arguments);
int runExplain(const std::vector<std::string> &arguments);
int runReproduce(const std::vector<std::string> &arguments);
