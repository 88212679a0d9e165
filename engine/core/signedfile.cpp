#include "engine/core/signedfile.h"

#include "engine/core/binaryio.h"

#include <cstring>

namespace signedfile {

std::string wrap(const Signature &signature, std::uint32_t version, const std::string &payload)
{
    return header(signature, version, {payload}) + payload;
}

std::string header(const Signature &signature, std::uint32_t version, const std::vector<std::string_view> &pieces)
{
    std::uint32_t crc = 0;
    std::size_t size = 0;
    for (std::string_view piece : pieces) {
        crc = crc32(piece.data(), piece.size(), crc);
        size += piece.size();
    }
    BinaryWriter fields;
    fields.u32(version);
    fields.u32(crc);
    fields.i64(std::int64_t(size));
    return std::string(signature, sizeof signature) + fields.bytes();
}

bool startsWith(const std::string &bytes, const Signature &signature)
{
    return bytes.size() >= sizeof signature && std::memcmp(bytes.data(), signature, sizeof signature) == 0;
}

Payload unwrap(const std::string &bytes, const Signature &signature, std::uint32_t maxVersion, const std::string &name,
               const std::string &notThisKind)
{
    if (!startsWith(bytes, signature)) {
        const bool ours = bytes.size() >= sizeof signature && bytes.compare(0, sizeof kFamily - 1, kFamily) == 0;
        throw Error(notThisKind + (ours ? " (it is another kind of AttnScope file: open it in the lab that saved it)"
                                        : " (the file does not start with its signature)"));
    }
    if (bytes.size() < kHeaderSize)
        throw Error("the " + name + " is truncated (" + std::to_string(bytes.size()) + " bytes, shorter than its header)");
    BinaryReader header(bytes.data() + sizeof signature, kHeaderSize - sizeof signature);
    Payload payload;
    payload.version = header.u32();
    const std::uint32_t checksum = header.u32();
    const std::int64_t length = header.i64();
    if (payload.version > maxVersion)
        throw Error("the " + name + " was written by a newer AttnScope (format " + std::to_string(payload.version)
                    + "); this version reads format " + std::to_string(maxVersion));
    if (payload.version == 0)
        throw Error("the " + name + "'s format version is invalid");
    if (length < 0 || std::uint64_t(length) != bytes.size() - kHeaderSize)
        throw Error("the " + name + " is truncated or has extra bytes (expected "
                    + std::to_string(length + std::int64_t(kHeaderSize)) + " bytes, found " + std::to_string(bytes.size())
                    + ")");
    payload.data = bytes.data() + kHeaderSize;
    payload.size = std::size_t(length);
    if (crc32(payload.data, payload.size) != checksum)
        throw Error("the " + name + " is damaged (checksum mismatch)");
    return payload;
}

}
