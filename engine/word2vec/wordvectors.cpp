#include "engine/word2vec/wordvectors.h"

#include "engine/core/atomicfile.h"

#include <charconv>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <unordered_set>

namespace {

constexpr std::size_t kMaxFileBytes = std::size_t(4) << 30;
constexpr long long kMaxDimensions = 100000;

std::invalid_argument lineError(int line, const std::string &what)
{
    return std::invalid_argument("Vectors file, line " + std::to_string(line) + ": " + what);
}

// The fields of a line split on spaces and tabs; a trailing '\r' (CRLF files) is dropped.
std::vector<std::string_view> fields(std::string_view line)
{
    if (!line.empty() && line.back() == '\r')
        line.remove_suffix(1);
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t'))
            ++i;
        const std::size_t start = i;
        while (i < line.size() && line[i] != ' ' && line[i] != '\t')
            ++i;
        if (i > start)
            out.push_back(line.substr(start, i - start));
    }
    return out;
}

bool parseInt(std::string_view text, long long &value)
{
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    return error == std::errc() && end == text.data() + text.size();
}

bool parseFloat(std::string_view text, float &value)
{
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    return error == std::errc() && end == text.data() + text.size() && std::isfinite(value);
}

struct Header {
    long long count = 0;
    long long dimensions = 0;
};

// The "V D" line that opens both formats; false when `line` is not one.
bool parseHeader(std::string_view line, Header &header)
{
    const std::vector<std::string_view> parts = fields(line);
    return parts.size() == 2 && parseInt(parts[0], header.count) && parseInt(parts[1], header.dimensions) &&
           header.count >= 1 && header.dimensions >= 1 && header.dimensions <= kMaxDimensions;
}

// A control byte other than tab and carriage return: no word and no line of a text file holds one.
bool isControl(char c)
{
    const auto byte = static_cast<unsigned char>(c);
    return (byte < 0x20 && c != '\t' && c != '\r') || byte == 0x7F;
}

bool hasControl(std::string_view bytes)
{
    for (char c : bytes)
        if (isControl(c))
            return true;
    return false;
}

// Whether `bytes` are printable ASCII, tabs and line ends: what a float32 vector almost never is.
bool isPlainText(std::string_view bytes)
{
    for (char c : bytes)
        if ((isControl(c) && c != '\n') || static_cast<unsigned char>(c) >= 0x80)
            return false;
    return true;
}

// Whether the first record after the header is a text line: a word, then a number, and no control
// character before the line ends. A binary record's float bytes almost never read so, while a text
// file in an encoding other than UTF-8 still does.
bool textRecordFollows(std::string_view afterHeader)
{
    const std::string_view line = afterHeader.substr(0, afterHeader.find('\n'));
    const std::vector<std::string_view> parts = fields(line);
    float value = 0;
    return !hasControl(line) && parts.size() >= 2 && parseFloat(parts[1], value);
}

std::invalid_argument wordError(long long word, const std::string &what)
{
    return std::invalid_argument("Vectors file (binary), word " + std::to_string(word) + ": " + what);
}

}

int WordVectors::index(const std::string &word) const
{
    for (std::size_t i = 0; i < words.size(); ++i)
        if (words[i] == word)
            return int(i);
    return -1;
}

std::string formatWord2VecText(const WordVectors &vectors)
{
    std::string out = std::to_string(vectors.size()) + ' ' + std::to_string(vectors.dimensions) + '\n';
    char buffer[32];
    for (int w = 0; w < vectors.size(); ++w) {
        out += vectors.words[std::size_t(w)];
        for (int d = 0; d < vectors.dimensions; ++d) {
            // The shortest text that reads back as the same float.
            const auto [end, error] = std::to_chars(
                buffer, buffer + sizeof buffer, vectors.values[std::size_t(w) * std::size_t(vectors.dimensions) + std::size_t(d)]);
            out += ' ';
            out.append(buffer, end);
        }
        out += '\n';
    }
    return out;
}

void writeWord2VecText(const std::string &path, const WordVectors &vectors)
{
    writeFileAtomically(path, formatWord2VecText(vectors));
}

WordVectors parseWord2VecText(const std::string &text)
{
    if (text.find('\0') != std::string::npos)
        throw std::invalid_argument("The vectors file holds binary data where the word2vec text format was expected "
                                    "(a \"count dimensions\" line, then \"word v1 ... vD\" per line).");
    std::string_view rest(text);
    auto nextLine = [&rest]() {
        const std::size_t end = rest.find('\n');
        const std::string_view line = rest.substr(0, end);
        rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
        return line;
    };
    Header header;
    if (!parseHeader(nextLine(), header))
        throw lineError(1, "expected the header \"<word count> <dimensions>\" of the word2vec text format");
    const long long count = header.count, dimensions = header.dimensions;
    if (double(count) * double(dimensions) * 2 > double(text.size()))
        throw lineError(1, "the header promises " + std::to_string(count) + " words of " + std::to_string(dimensions) +
                               " numbers, more than the file can hold");
    WordVectors vectors;
    vectors.dimensions = int(dimensions);
    vectors.words.reserve(std::size_t(count));
    vectors.values.reserve(std::size_t(count * dimensions));
    std::unordered_set<std::string> seen;
    for (long long w = 0; w < count; ++w) {
        const int lineNumber = int(w) + 2;
        if (rest.empty())
            throw lineError(lineNumber, "the file ends after " + std::to_string(w) + " of the " +
                                            std::to_string(count) + " words its header announces");
        const std::vector<std::string_view> parts = fields(nextLine());
        if (static_cast<long long>(parts.size()) != dimensions + 1)
            throw lineError(lineNumber, "expected a word and " + std::to_string(dimensions) + " numbers, found " +
                                            std::to_string(parts.empty() ? 0 : parts.size() - 1) + " numbers");
        std::string word(parts[0]);
        if (!seen.insert(word).second)
            throw lineError(lineNumber, "the word \"" + word + "\" appears twice");
        for (std::size_t d = 1; d < parts.size(); ++d) {
            float value = 0;
            if (!parseFloat(parts[d], value))
                throw lineError(lineNumber, "\"" + std::string(parts[d]) + "\" is not a number");
            vectors.values.push_back(value);
        }
        vectors.words.push_back(std::move(word));
    }
    for (std::string_view line = nextLine(); !rest.empty() || !line.empty(); line = nextLine())
        if (!fields(line).empty())
            throw lineError(int(count) + 2, "more lines than the header's " + std::to_string(count) + " words");
    return vectors;
}

WordVectors readWord2VecText(const std::string &path)
{
    return parseWord2VecText(readWholeFile(path, kMaxFileBytes));
}

std::string formatWord2VecBinary(const WordVectors &vectors)
{
    static_assert(sizeof(float) == 4, "the format holds IEEE-754 float32s");
    std::string out = std::to_string(vectors.size()) + ' ' + std::to_string(vectors.dimensions) + '\n';
    const std::size_t rowBytes = std::size_t(vectors.dimensions) * sizeof(float);
    for (std::size_t w = 0; w < vectors.words.size(); ++w) {
        out += vectors.words[w];
        out += ' ';
        out.append(reinterpret_cast<const char *>(vectors.values.data() + w * std::size_t(vectors.dimensions)),
                   rowBytes);
        out += '\n';
    }
    return out;
}

void writeWord2VecBinary(const std::string &path, const WordVectors &vectors)
{
    writeFileAtomically(path, formatWord2VecBinary(vectors));
}

WordVectors parseWord2VecBinary(const std::string &bytes)
{
    const std::size_t headerEnd = bytes.find('\n');
    Header header;
    if (headerEnd == std::string::npos || !parseHeader(std::string_view(bytes).substr(0, headerEnd), header))
        throw std::invalid_argument(
            "Vectors file (binary): expected the header line \"<word count> <dimensions>\" of the word2vec format");
    const long long count = header.count;
    const std::string countText = std::to_string(count);
    std::string_view rest = std::string_view(bytes).substr(headerEnd + 1);
    const std::size_t vectorBytes = std::size_t(header.dimensions) * sizeof(float);
    // Each word takes at least one byte, its space and its vector.
    if (std::uint64_t(count) > rest.size() / (vectorBytes + 2))
        throw std::invalid_argument("Vectors file (binary): the header promises " + countText + " words of " +
                                    std::to_string(header.dimensions) + " numbers, more than the file can hold");
    WordVectors vectors;
    vectors.dimensions = int(header.dimensions);
    vectors.words.reserve(std::size_t(count));
    vectors.values.resize(std::size_t(count) * std::size_t(header.dimensions));
    std::unordered_set<std::string> seen;
    for (long long w = 0; w < count; ++w) {
        if (!rest.empty() && rest.front() == '\n')  // the end of the previous vector, as word2vec writes it
            rest.remove_prefix(1);
        const std::size_t space = rest.find(' ');
        if (space == std::string_view::npos)
            throw wordError(w + 1, "the file ends after " + std::to_string(w) + " of the " + countText +
                                       " words its header announces");
        std::string word(rest.substr(0, space));
        if (word.empty() || hasControl(word))
            throw wordError(w + 1, "no word before the vector, or one with control characters: the file is damaged "
                                   "or not in the word2vec binary format");
        rest.remove_prefix(space + 1);
        if (rest.size() < vectorBytes)
            throw wordError(w + 1, "the file ends inside the vector of \"" + word + "\"");
        float *row = vectors.values.data() + std::size_t(w) * std::size_t(header.dimensions);
        std::memcpy(row, rest.data(), vectorBytes);
        rest.remove_prefix(vectorBytes);
        for (long long d = 0; d < header.dimensions; ++d)
            if (!std::isfinite(row[d]))
                throw wordError(w + 1, "the vector of \"" + word + "\" holds a value that is not a finite number");
        if (!seen.insert(word).second)
            throw wordError(w + 1, "the word \"" + word + "\" appears twice");
        vectors.words.push_back(std::move(word));
    }
    if (!rest.empty() && rest.front() == '\n')
        rest.remove_prefix(1);
    if (!rest.empty())
        throw wordError(count + 1, "more data than the header's " + countText + " words");
    return vectors;
}

WordVectors parseWord2Vec(const std::string &bytes)
{
    const std::size_t headerEnd = bytes.find('\n');
    if (headerEnd != std::string::npos && !textRecordFollows(std::string_view(bytes).substr(headerEnd + 1)))
        return parseWord2VecBinary(bytes);
    return parseWord2VecText(bytes);
}

WordVectors readWord2Vec(const std::string &path)
{
    return parseWord2Vec(readWholeFile(path, kMaxFileBytes));
}

Word2VecFormat word2vecFormat(const std::string &firstBytes)
{
    const std::size_t headerEnd = firstBytes.find('\n');
    Header header;
    if (headerEnd == std::string::npos || !parseHeader(std::string_view(firstBytes).substr(0, headerEnd), header))
        return Word2VecFormat::None;
    const std::string_view rest = std::string_view(firstBytes).substr(headerEnd + 1);
    if (textRecordFollows(rest))
        return Word2VecFormat::Text;
    // A word, its space and the bytes of a vector.
    const std::size_t space = rest.find(' ');
    const std::size_t vectorBytes = std::size_t(header.dimensions) * sizeof(float);
    const bool binary = space != std::string_view::npos && space > 0 && !hasControl(rest.substr(0, space)) &&
                        !isPlainText(rest.substr(space + 1, vectorBytes));
    return binary ? Word2VecFormat::Binary : Word2VecFormat::None;
}
