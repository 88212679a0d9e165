#include "engine/word2vec/wordvectors.h"

#include "engine/core/atomicfile.h"

#include <charconv>
#include <cmath>
#include <stdexcept>
#include <unordered_set>

namespace {

constexpr std::size_t kMaxFileBytes = std::size_t(4) << 30;

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
        throw std::invalid_argument("The vectors file holds binary data: AttnScope reads the word2vec text format "
                                    "(a \"count dimensions\" line, then \"word v1 ... vD\" per line).");
    std::string_view rest(text);
    auto nextLine = [&rest]() {
        const std::size_t end = rest.find('\n');
        const std::string_view line = rest.substr(0, end);
        rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
        return line;
    };
    const std::vector<std::string_view> header = fields(nextLine());
    long long count = 0, dimensions = 0;
    if (header.size() != 2 || !parseInt(header[0], count) || !parseInt(header[1], dimensions) || count < 1 ||
        dimensions < 1 || dimensions > 100000)
        throw lineError(1, "expected the header \"<word count> <dimensions>\" of the word2vec text format");
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
