#pragma once

#include <string>

// Why a command cannot read a file that is another lab's: "it is a file of the Attention lab
// (AttnScope attention model), not a Transformer checkpoint; use --architecture rnn", naming the
// architecture when that lab's commands are chosen by one. Empty when no lab but `labId` (the
// command's own) recognises the file, or it cannot be read. `expected` names what the command reads.
std::string otherLabsFile(const std::string &path, const std::string &labId, const std::string &expected);
