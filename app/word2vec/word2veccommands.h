#pragma once

#include <string>
#include <vector>

// The word-embedding lab's subcommands; each returns the process exit code: 0 success, 1 failure
// while running, 2 bad usage.
int runWord2Vec(const std::vector<std::string> &arguments);     // train on a corpus, write the results
int runNeighbours(const std::vector<std::string> &arguments);   // nearest words in a vectors file
int runAnalogy(const std::vector<std::string> &arguments);      // a : b :: c : ? in a vectors file
