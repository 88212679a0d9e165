#pragma once

#include <string>

// What `attnscope <command> --architecture transformer --help` prints, in the RNN's layout.
std::string transformerTrainHelp();
std::string transformerReverseHelp();
std::string transformerEvaluateHelp();
std::string transformerCompareHelp();
std::string transformerExplainHelp();
