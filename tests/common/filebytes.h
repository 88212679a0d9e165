#pragma once

#include <cstddef>
#include <cstring>
#include <string>

// For tests that damage or hand-build AttnScope's own files byte by byte.
namespace filebytes {

// The header, stated here apart from the engine's: 8-byte signature, u32 version, u32 CRC-32 and
// i64 length of the payload after it.
constexpr std::size_t kHeaderSize = 8 + 4 + 4 + 8;

// Overwrites the bytes of `bytes` at `at` with those of `value`.
template <typename T>
void put(std::string &bytes, std::size_t at, T value)
{
    std::memcpy(&bytes[at], &value, sizeof value);
}

}
