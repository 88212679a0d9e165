#pragma once

#include <string>
#include <vector>

// The character language-model lab's subcommands; each returns the process exit code: 0 success,
// 1 failure while running (a bad file), 2 bad usage.
int runCharLm(const std::vector<std::string> &arguments);    // train on a text, write the results
int runGenerate(const std::vector<std::string> &arguments);  // sample from a trained model
// `charlm explain`: which of a context's last characters drive the model's next one.
int runCharExplain(const std::vector<std::string> &arguments);
