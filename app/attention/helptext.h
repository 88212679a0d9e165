#pragma once

#include <string>

// What `attnscope --help` prints: the commands, then their options, made from the field tables of
// the configurations (each with its default, read from the struct, and its range).
std::string helpText();
// What `attnscope charlm --help` and `attnscope generate --help` print: the character lab's part.
std::string charLmHelpText();
