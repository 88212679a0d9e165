#include "engine/core/dataset.h"

#include "engine/core/corpusdefaults.h"
#include "engine/core/tokenizer.h"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace {

// splitmix64: tiny, and the same numbers on every platform (std:: distributions are not).
class DataRandom
{
public:
    explicit DataRandom(std::uint64_t seed) : m_state(seed) {}
    std::uint64_t next()
    {
        std::uint64_t z = (m_state += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    int below(int n) { return int(next() % std::uint64_t(n)); }

private:
    std::uint64_t m_state;
};

SentencePair makePair(Task task, std::vector<std::string> source)
{
    SentencePair p;
    p.target = targetFor(task, source);
    p.source = std::move(source);
    return p;
}

std::vector<SentencePair> generate(const DatasetConfig &c, DataRandom &rng, int count)
{
    const int maxLength = generatedMaxLength(c);
    std::vector<SentencePair> out;
    out.reserve(std::size_t(count));
    for (int i = 0; i < count; ++i) {
        const int length = c.minLength + rng.below(maxLength - c.minLength + 1);
        std::vector<std::string> words;
        for (int w = 0; w < length; ++w)
            words.push_back(c.words[std::size_t(rng.below(int(c.words.size())))]);
        out.push_back(makePair(c.task, std::move(words)));
    }
    return out;
}

bool validUtf8(const std::string &s)
{
    std::size_t i = 0;
    while (i < s.size()) {
        const unsigned char c = s[i];
        int extra = c < 0x80 ? 0 : (c >> 5) == 0x6 ? 1 : (c >> 4) == 0xE ? 2 : (c >> 3) == 0x1E ? 3 : -1;
        if (extra < 0 || i + std::size_t(extra) >= s.size())
            return false;
        for (int k = 1; k <= extra; ++k)
            if ((static_cast<unsigned char>(s[i + std::size_t(k)]) >> 6) != 0x2)
                return false;
        i += std::size_t(extra) + 1;
    }
    return true;
}

Dataset readCorpus(const DatasetConfig &c)
{
    constexpr std::streamoff kMaxBytes = 256ll << 20;
    std::error_code ignored;
    if (std::filesystem::is_directory(c.corpusPath, ignored))
        throw DatasetError("corpus '" + c.corpusPath + "' is a directory; choose a text file, one sentence per line");
    // Opening a FIFO would block until someone writes to it; devices never end.
    if (std::filesystem::exists(c.corpusPath, ignored) && !std::filesystem::is_regular_file(c.corpusPath, ignored))
        throw DatasetError("corpus '" + c.corpusPath + "' is not a regular file; choose a text file, one sentence per line");
    std::ifstream in(c.corpusPath, std::ios::binary);
    if (!in)
        throw DatasetError("cannot open corpus file '" + c.corpusPath + "' (missing or unreadable)");
    in.seekg(0, std::ios::end);
    const std::streamoff size = in.tellg();
    if (size < 0)
        throw DatasetError("cannot read corpus file '" + c.corpusPath + "' (is it a directory?)");
    if (size > kMaxBytes)
        throw DatasetError("corpus file '" + c.corpusPath + "' is larger than 256 MiB");
    in.seekg(0);
    std::string text(std::size_t(size), '\0');
    if (size > 0 && !in.read(&text[0], size))
        throw DatasetError("cannot read corpus file '" + c.corpusPath + "'");
    return parseCorpus(c, text, "corpus file '" + c.corpusPath + "'");
}

}

Dataset parseCorpus(const DatasetConfig &c, const std::string &text, const std::string &what)
{
    const std::string problem = validate(c);
    if (!problem.empty())
        throw DatasetError("invalid dataset settings: " + problem);
    if (text.find('\0') != std::string::npos)
        throw DatasetError(what + " looks binary (it contains NUL bytes); expected plain text, one sentence per line");

    // Every line is tokenized first: an automatic length limit depends on all of them.
    std::vector<std::vector<std::string>> lines;
    std::vector<int> lengths;
    int lineNumber = 0;
    for (std::size_t begin = 0; begin < text.size();) {
        // Lines end in LF, CRLF or a lone CR (old Mac files), mixed freely.
        const std::size_t end = std::min(text.find_first_of("\r\n", begin), text.size());
        const std::string line = text.substr(begin, end - begin);
        begin = end + (text.compare(end, 2, "\r\n") == 0 ? 2 : 1);
        ++lineNumber;
        if (!validUtf8(line))
            throw DatasetError(what + " line " + std::to_string(lineNumber)
                               + " is not valid UTF-8");
        lines.push_back(tokenize(line, c.lowercase));
        if (!lines.back().empty())
            lengths.push_back(int(lines.back().size()));
    }

    Dataset d;
    d.fromCorpus = true;
    d.maxLength = corpusMaxLength(c, lengths);
    d.lengthPercentile = c.maxLength > 0 ? 0 : kCorpusLengthPercentile;
    std::vector<SentencePair> all;
    for (std::vector<std::string> &tokens : lines) {
        if (tokens.empty())
            ++d.skippedBlank;
        else if (int(tokens.size()) > d.maxLength)
            ++d.skippedTooLong;
        else if (int(tokens.size()) < c.minLength)
            ++d.skippedTooShort;
        else
            all.push_back(makePair(c.task, std::move(tokens)));
    }
    if (all.size() < 3) {
        std::ostringstream m;
        m << what << " has " << all.size()
          << " usable sentences; at least 3 are needed (one per split)";
        if (d.skippedTooLong || d.skippedTooShort)
            m << " — " << d.skippedTooLong << " lines were longer than " << d.maxLength << " tokens and "
              << d.skippedTooShort << " shorter than " << c.minLength;
        throw DatasetError(m.str());
    }

    DataRandom rng(c.seed);
    for (std::size_t i = all.size() - 1; i > 0; --i)
        std::swap(all[i], all[std::size_t(rng.below(int(i + 1)))]);
    const std::size_t n = all.size();
    std::size_t nVal = std::max<std::size_t>(1, std::size_t(double(n) * c.valFraction));
    std::size_t nTest = std::max<std::size_t>(1, std::size_t(double(n) * c.testFraction));
    if (nVal + nTest >= n)
        nVal = nTest = 1;
    d.test.assign(all.begin(), all.begin() + std::ptrdiff_t(nTest));
    d.val.assign(all.begin() + std::ptrdiff_t(nTest), all.begin() + std::ptrdiff_t(nTest + nVal));
    d.train.assign(all.begin() + std::ptrdiff_t(nTest + nVal), all.end());
    return d;
}

std::vector<std::string> targetFor(Task task, const std::vector<std::string> &source)
{
    if (task == Task::Copy)
        return source;
    return {source.rbegin(), source.rend()};
}

Dataset Dataset::build(const DatasetConfig &config)
{
    const std::string problem = validate(config);
    if (!problem.empty())
        throw DatasetError("invalid dataset settings: " + problem);
    if (!config.corpusPath.empty())
        return readCorpus(config);
    DataRandom rng(config.seed);
    Dataset d;
    d.maxLength = generatedMaxLength(config);
    d.train = generate(config, rng, config.trainSize);
    d.val = generate(config, rng, config.valSize);
    d.test = generate(config, rng, config.testSize);
    return d;
}

std::vector<SentencePair> previewPairs(const DatasetConfig &config, int count)
{
    if (!validate(config).empty() || count <= 0)
        return {};
    if (!config.corpusPath.empty()) {
        try {
            Dataset d = readCorpus(config);
            d.train.resize(std::min<std::size_t>(d.train.size(), std::size_t(count)));
            return d.train;
        } catch (const DatasetError &) {
            return {};
        }
    }
    DataRandom rng(config.seed);
    return generate(config, rng, count);
}

int rightSourcePosition(Task task, int sourceWords, int step)
{
    if (step < 0 || step >= sourceWords)
        return -1;
    return task == Task::Reverse ? sourceWords - 1 - step : step;
}

std::vector<SentencePair> probeSet(const DatasetConfig &config, int maxLength, int count)
{
    DatasetConfig probe = config;
    probe.corpusPath.clear();
    probe.maxLength = maxLength;
    probe.seed = config.seed + 1;
    probe.trainSize = 1;
    probe.valSize = 1;
    probe.testSize = count;
    return Dataset::build(probe).test;
}
