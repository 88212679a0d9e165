#pragma once

#include <string>

// Text files as the labs read them: UTF-8, refused with a message when they look binary.

// Throws std::invalid_argument when `text` holds a NUL byte or more than a tenth of its bytes are
// control characters or not UTF-8. `what` names it ("The corpus"), `advice` says what to give instead.
void refuseBinaryText(const std::string &text, const std::string &what, const std::string &advice);

// Code points of UTF-8 `text`; a byte that starts no well-formed sequence reads as U+FFFD, as
// Python's errors="replace" does.
std::u32string decodeUtf8(const std::string &text);
std::string encodeUtf8(const std::u32string &text);
std::string encodeUtf8(char32_t c);
