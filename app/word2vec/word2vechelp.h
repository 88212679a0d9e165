#pragma once

#include <string>

// What `attnscope word2vec --help`, `neighbours --help` and `analogy --help` print.
std::string word2vecHelp();
std::string neighboursHelp();
std::string analogyHelp();
