#include "engine/core/binaryio.h"

#include <array>
#include <cstring>
#include <limits>

static_assert(sizeof(float) == 4 && sizeof(double) == 8, "checkpoints assume IEEE-754 floats");

void BinaryWriter::raw(const void *data, std::size_t size)
{
    m_bytes.append(static_cast<const char *>(data), size);
}

void BinaryWriter::u32(std::uint32_t v) { raw(&v, sizeof v); }
void BinaryWriter::i64(std::int64_t v) { raw(&v, sizeof v); }
void BinaryWriter::f64(double v) { raw(&v, sizeof v); }

void BinaryWriter::string(const std::string &s)
{
    u32(std::uint32_t(s.size()));
    raw(s.data(), s.size());
}

void BinaryWriter::floats(const float *data, std::size_t count)
{
    raw(data, count * sizeof(float));
}

void BinaryWriter::u16s(const std::uint16_t *data, std::size_t count)
{
    raw(data, count * sizeof(std::uint16_t));
}

void BinaryWriter::floatArray(const std::vector<float> &values)
{
    i64(std::int64_t(values.size()));
    floats(values.data(), values.size());
}

void BinaryReader::raw(void *out, std::size_t size)
{
    if (size > m_size - m_offset)
        throw BinaryFormatError("unexpected end of data");
    std::memcpy(out, m_data + m_offset, size);
    m_offset += size;
}

std::uint32_t BinaryReader::u32()
{
    std::uint32_t v;
    raw(&v, sizeof v);
    return v;
}

std::int64_t BinaryReader::i64()
{
    std::int64_t v;
    raw(&v, sizeof v);
    return v;
}

double BinaryReader::f64()
{
    double v;
    raw(&v, sizeof v);
    return v;
}

std::string BinaryReader::string(std::size_t maxLength)
{
    const std::uint32_t length = u32();
    if (length > maxLength || length > m_size - m_offset)
        throw BinaryFormatError("string length out of range");
    std::string s(m_data + m_offset, length);
    m_offset += length;
    return s;
}

void BinaryReader::floats(float *out, std::size_t count)
{
    if (count > (m_size - m_offset) / sizeof(float))
        throw BinaryFormatError("array length out of range");
    raw(out, count * sizeof(float));
}

void BinaryReader::u16s(std::uint16_t *out, std::size_t count)
{
    if (count > (m_size - m_offset) / sizeof(std::uint16_t))
        throw BinaryFormatError("array length out of range");
    raw(out, count * sizeof(std::uint16_t));
}

int BinaryReader::integer()
{
    const std::int64_t v = i64();
    if (v < std::numeric_limits<int>::min() || v > std::numeric_limits<int>::max())
        throw BinaryFormatError("integer out of range");
    return int(v);
}

std::uint32_t BinaryReader::count(std::size_t itemBytes, std::uint32_t max)
{
    const std::uint32_t n = u32();
    if (n > max || n > remaining() / itemBytes)
        throw BinaryFormatError("count out of range");
    return n;
}

std::uint32_t BinaryReader::choice(std::uint32_t choices, const char *what)
{
    const std::uint32_t v = u32();
    if (v >= choices)
        throw BinaryFormatError(std::string("unknown ") + what);
    return v;
}

std::vector<float> BinaryReader::floatArray(std::size_t expected, const std::string &what)
{
    const std::int64_t length = i64();
    if (length < 0 || std::uint64_t(length) != expected)
        throw BinaryFormatError(what + " has " + std::to_string(length) + " values where its model has "
                                + std::to_string(expected));
    if (expected > remaining() / sizeof(float))
        throw BinaryFormatError(what + " runs past the end");
    std::vector<float> values(expected);
    floats(values.data(), values.size());
    return values;
}

std::uint32_t crc32(const char *data, std::size_t size, std::uint32_t previous)
{
    static const auto table = [] {
        std::array<std::uint32_t, 256> t{};
        for (std::uint32_t i = 0; i < 256; ++i) {
            std::uint32_t c = i;
            for (int k = 0; k < 8; ++k)
                c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
            t[i] = c;
        }
        return t;
    }();
    std::uint32_t c = previous ^ 0xFFFFFFFFu;
    for (std::size_t i = 0; i < size; ++i)
        c = table[(c ^ static_cast<unsigned char>(data[i])) & 0xFF] ^ (c >> 8);
    return c ^ 0xFFFFFFFFu;
}
