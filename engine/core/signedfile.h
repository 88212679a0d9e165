#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

// The frame of every file AttnScope writes in its own format: an 8-byte signature naming the kind
// of file, the format version, the CRC-32 and the length of the payload, then the payload.
namespace signedfile {

using Signature = char[8];
inline constexpr Signature kAttentionCheckpoint = {'A', 'T', 'N', 'S', 'C', 'K', 'P', 'T'};
inline constexpr Signature kCharCheckpoint = {'A', 'T', 'N', 'S', 'C', 'H', 'A', 'R'};
inline constexpr Signature kAttentionProject = {'A', 'T', 'N', 'S', 'P', 'R', 'O', 'J'};
inline constexpr std::size_t kHeaderSize = sizeof(Signature) + 4 + 4 + 8;

struct Error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

std::string wrap(const Signature &signature, std::uint32_t version, const std::string &payload);
bool startsWith(const std::string &bytes, const Signature &signature);

struct Payload {
    const char *data = nullptr;
    std::size_t size = 0;
    std::uint32_t version = 0;
};
// The payload of `bytes` once its signature, version (1 to `maxVersion`), length and checksum
// check out. Otherwise throws Error: `notThisKind` ("not an AttnScope checkpoint") for another
// signature, else what is wrong with the file, called `name` ("checkpoint").
Payload unwrap(const std::string &bytes, const Signature &signature, std::uint32_t maxVersion, const std::string &name,
               const std::string &notThisKind);

}
