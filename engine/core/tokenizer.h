#pragma once

#include <string>
#include <vector>

// Splits on whitespace and keeps ASCII punctuation as tokens of its own ("hi, you" -> hi , you).
// Lower-casing touches ASCII letters only, so UTF-8 text passes through unchanged.
std::vector<std::string> tokenize(const std::string &text, bool lowercase = true);

std::string joinTokens(const std::vector<std::string> &tokens);
