#pragma once

#include <string>
#include <string_view>
#include <vector>

// Replaces `path` with `bytes` so that a reader sees either the old file or the new one, never a
// mix: a temporary file in the same folder is written, fsync'ed, then renamed over `path`. A
// replaced file keeps its permissions; a new one gets rw-r--r--. Every file the program writes
// goes through here (Qt callers through ui/core/plotexport.h).
// Throws std::runtime_error with the reason (and removes the temporary file) on failure.
void writeFileAtomically(const std::string &path, std::string_view bytes);
// The same with the file's bytes in `pieces`, written one after another.
void writeFileAtomically(const std::string &path, const std::vector<std::string_view> &pieces);

// Whole file into memory; throws std::runtime_error when it cannot be read or exceeds `maxBytes`.
std::string readWholeFile(const std::string &path, std::size_t maxBytes);
