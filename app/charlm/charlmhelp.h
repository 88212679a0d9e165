#pragma once

#include <string>

// What `attnscope charlm --help` and `attnscope generate --help` print.
std::string charLmHelp();
std::string generateHelp();
