#include "engine/core/plaintext.h"

#include <cstdint>
#include <stdexcept>

namespace {

// The length of the well-formed UTF-8 sequence at text[i], or 0 when there is none.
int sequenceLength(const std::string &text, size_t i)
{
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c < 0x80)
        return 1;
    const int length = c >= 0xF0 && c < 0xF5 ? 4 : c >= 0xE0 && c < 0xF0 ? 3 : c >= 0xC2 && c < 0xE0 ? 2 : 0;
    if (length == 0 || i + size_t(length) > text.size())
        return 0;
    for (int k = 1; k < length; ++k)
        if ((static_cast<unsigned char>(text[i + size_t(k)]) & 0xC0) != 0x80)
            return 0;
    return length;
}

// Bytes that no text file holds: control characters other than whitespace, and bytes that are not
// part of a well-formed UTF-8 sequence.
int64_t nonTextBytes(const std::string &text)
{
    int64_t bad = 0;
    size_t i = 0;
    while (i < text.size()) {
        const unsigned char c = static_cast<unsigned char>(text[i]);
        const int length = sequenceLength(text, i);
        if (length == 0 || (c < 0x20 && c != '\n' && c != '\r' && c != '\t' && c != '\f' && c != '\v'))
            ++bad;
        i += size_t(length > 0 ? length : 1);
    }
    return bad;
}

}

void refuseBinaryText(const std::string &text, const std::string &what, const std::string &advice)
{
    if (text.find('\0') != std::string::npos)
        throw std::invalid_argument(what + " holds NUL bytes: it is a binary file, not text. " + advice);
    if (nonTextBytes(text) * 10 > int64_t(text.size()))
        throw std::invalid_argument(what + " is mostly not text (more than a tenth of its bytes are control "
                                           "characters or not UTF-8): it looks like a binary file. " + advice);
}

std::u32string decodeUtf8(const std::string &text)
{
    std::u32string out;
    out.reserve(text.size());
    size_t i = 0;
    while (i < text.size()) {
        const int length = sequenceLength(text, i);
        const unsigned char c = static_cast<unsigned char>(text[i]);
        if (length == 0) {
            out += U'\uFFFD';
            ++i;
            continue;
        }
        char32_t point = length == 1 ? c : length == 2 ? c & 0x1F : length == 3 ? c & 0x0F : c & 0x07;
        for (int k = 1; k < length; ++k)
            point = (point << 6) | (static_cast<unsigned char>(text[i + size_t(k)]) & 0x3F);
        out += point;
        i += size_t(length);
    }
    return out;
}

std::string encodeUtf8(char32_t c)
{
    std::string out;
    if (c < 0x80) {
        out += char(c);
    } else if (c < 0x800) {
        out += char(0xC0 | (c >> 6));
        out += char(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
        out += char(0xE0 | (c >> 12));
        out += char(0x80 | ((c >> 6) & 0x3F));
        out += char(0x80 | (c & 0x3F));
    } else {
        out += char(0xF0 | (c >> 18));
        out += char(0x80 | ((c >> 12) & 0x3F));
        out += char(0x80 | ((c >> 6) & 0x3F));
        out += char(0x80 | (c & 0x3F));
    }
    return out;
}

std::string encodeUtf8(const std::u32string &text)
{
    std::string out;
    out.reserve(text.size());
    for (char32_t c : text)
        out += encodeUtf8(c);
    return out;
}
