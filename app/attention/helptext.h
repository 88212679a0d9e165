#pragma once

#include <string>

// What `attnscope --help` prints: the commands, then the train options, made from the field
// tables of the three configurations (each with its default, read from the struct).
std::string helpText();
