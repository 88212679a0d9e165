#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

// The frame of every file AttnScope writes in its own format: an 8-byte signature naming the kind
// of file, the format version, the CRC-32 and the length of the payload, then the payload. Each lab
// names the kinds it writes; every signature starts with kFamily, so that a file of another kind
// is told apart from a foreign one.
namespace signedfile {

using Signature = char[8];
inline constexpr char kFamily[] = "ATNS";
inline constexpr std::size_t kHeaderSize = sizeof(Signature) + 4 + 4 + 8;

struct Error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

std::string wrap(const Signature &signature, std::uint32_t version, const std::string &payload);
// The frame's header for a payload that lies in `pieces`, one after another: large payloads are
// written piece by piece after it instead of being copied into one string.
std::string header(const Signature &signature, std::uint32_t version, const std::vector<std::string_view> &pieces);
bool startsWith(const std::string &bytes, const Signature &signature);

struct Payload {
    const char *data = nullptr;
    std::size_t size = 0;
    std::uint32_t version = 0;
};
// The payload of `bytes` once its signature, version (1 to `maxVersion`), length and checksum
// check out. Otherwise throws Error: `notThisKind` ("not an AttnScope checkpoint") for another
// signature, with a word on whether it is another kind of AttnScope file, else what is wrong
// with the file, called `name` ("checkpoint").
Payload unwrap(const std::string &bytes, const Signature &signature, std::uint32_t maxVersion, const std::string &name,
               const std::string &notThisKind);

}
