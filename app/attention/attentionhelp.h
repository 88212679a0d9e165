#pragma once

#include <string>

// What `attnscope <command> --help` prints for the attention lab's commands: what each does and
// writes, and its options, those of the configurations made from their field tables.
std::string trainHelp();
std::string compareHelp();
std::string reverseHelp();
std::string evaluateHelp();
std::string explainHelp();
std::string reproduceHelp();
std::string benchHelp();
