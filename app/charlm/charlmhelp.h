#pragma once

#include <string>

// What `attnscope charlm --help` (charlm explain's options included) and `attnscope generate --help` print.
std::string charLmHelp();
std::string generateHelp();
