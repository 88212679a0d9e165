#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

// Little-endian, length-prefixed values for the checkpoint format. The reader checks every length
// against what is left, so a damaged file throws BinaryFormatError instead of reading past the end.
struct BinaryFormatError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

class BinaryWriter
{
public:
    void u32(std::uint32_t v);
    void i64(std::int64_t v);
    void f64(double v);
    void string(const std::string &s);
    void floats(const float *data, std::size_t count);
    void u16s(const std::uint16_t *data, std::size_t count);
    void floatArray(const std::vector<float> &values);  // its length first, as an i64
    const std::string &bytes() const { return m_bytes; }
    void reserve(std::size_t bytes) { m_bytes.reserve(bytes); }
    std::string release() { return std::move(m_bytes); }

private:
    void raw(const void *data, std::size_t size);
    std::string m_bytes;
};

class BinaryReader
{
public:
    BinaryReader(const char *data, std::size_t size) : m_data(data), m_size(size) {}
    std::uint32_t u32();
    std::int64_t i64();
    double f64();
    std::string string(std::size_t maxLength = 1 << 20);
    void floats(float *out, std::size_t count);
    void u16s(std::uint16_t *out, std::size_t count);
    int integer();  // an i64 that must fit in an int
    // A u32 count of items that take at least `itemBytes` each: more than `max`, or more than the
    // bytes left can hold, is damage, refused before anything is allocated for the items.
    std::uint32_t count(std::size_t itemBytes, std::uint32_t max = UINT32_MAX);
    // A u32 that must be below `choices`; `what` names it in the error ("unknown cell").
    std::uint32_t choice(std::uint32_t choices, const char *what);
    // BinaryWriter::floatArray()'s array, whose length the reader knows: any other is damage,
    // refused before the array is allocated. `what` names it in the error ("the output bias").
    std::vector<float> floatArray(std::size_t expected, const std::string &what);
    // A string as long as the rest of the data may be: a file inside the file, a corpus.
    std::string block() { return string(remaining()); }
    bool atEnd() const { return m_offset == m_size; }
    std::size_t remaining() const { return m_size - m_offset; }

private:
    void raw(void *out, std::size_t size);
    const char *m_data;
    std::size_t m_size;
    std::size_t m_offset = 0;
};

// `previous`: the CRC of the bytes before `data`, to checksum data that lies in several pieces.
std::uint32_t crc32(const char *data, std::size_t size, std::uint32_t previous = 0);
