#include "engine/core/tokenizer.h"

#include <cctype>

namespace {
bool isSpace(unsigned char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }
// Only ASCII punctuation splits: bytes >= 0x80 belong to UTF-8 letters and stay inside words.
bool isPunct(unsigned char c) { return c < 0x80 && std::ispunct(c); }
}

std::vector<std::string> tokenize(const std::string &text, bool lowercase)
{
    std::vector<std::string> tokens;
    std::string current;
    auto flush = [&] {
        if (!current.empty())
            tokens.push_back(std::move(current));
        current.clear();
    };
    for (unsigned char c : text) {
        if (isSpace(c)) {
            flush();
        } else if (isPunct(c)) {
            flush();
            tokens.emplace_back(1, char(c));
        } else {
            current += (lowercase && c < 0x80) ? char(std::tolower(c)) : char(c);
        }
    }
    flush();
    return tokens;
}

std::string joinTokens(const std::vector<std::string> &tokens)
{
    std::string out;
    for (const auto &t : tokens) {
        if (!out.empty())
            out += ' ';
        out += t;
    }
    return out;
}
