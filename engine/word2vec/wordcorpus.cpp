#include "engine/word2vec/wordcorpus.h"

#include "engine/core/plaintext.h"
#include "engine/core/thousands.h"
#include "engine/word2vec/noisedistribution.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string_view>
#include <unordered_map>

namespace {

// Longer lines are cut into pieces of this many kept words (word2vec.c cuts at 1000, gensim drops
// the rest after 10000): training shares and rounds are made of whole lines.
constexpr size_t kMaxLineWords = 10000;

bool isLetter(char c)
{
    return c >= 'a' && c <= 'z';
}

// The line as Python's str.lower() leaves it for the pattern [a-z]: ASCII letters lowered, and the
// two non-ASCII letters whose lower case is an ASCII one (KELVIN SIGN, capital I with dot above).
std::string lowerForPattern(const std::string &line)
{
    std::string lowered;
    lowered.reserve(line.size());
    for (size_t i = 0; i < line.size(); ++i) {
        const unsigned char c = static_cast<unsigned char>(line[i]);
        if (c >= 'A' && c <= 'Z') {
            lowered += char(c - 'A' + 'a');
        } else if (c == 0xE2 && line.compare(i, 3, "\xE2\x84\xAA") == 0) {
            lowered += 'k';
            i += 2;
        } else if (c == 0xC4 && line.compare(i, 2, "\xC4\xB0") == 0) {
            lowered += "i ";  // the combining dot that follows the i separates words
            i += 1;
        } else {
            lowered += char(c);
        }
    }
    return lowered;
}

std::string percent(double share)
{
    return std::to_string(int(std::lround(share * 100))) + "%";
}

std::string realText(double value)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%g", value);
    return buffer;
}

// Expected (centre, context) pairs in a line of `length` words when every position draws its
// window uniformly from 1..window: 2 x the sum over positions of E[min(b, words on one side)].
// With the whole window every position reaches min(window, words on one side).
double expectedPairs(double length, int window, bool wholeWindow)
{
    const int64_t n = std::max<int64_t>(0, std::llround(length));
    double sum = 0;
    if (wholeWindow) {
        for (int64_t i = 0; i < n; ++i)
            sum += double(std::min<int64_t>(i, window));
        return 2 * sum;
    }
    for (int64_t i = 0; i < std::min<int64_t>(n, window); ++i)
        sum += double(i) * double(window - i) / window + double(i * (i + 1) / 2) / window;
    if (n > window)
        sum += double(n - window) * (window + 1) / 2.0;
    return 2 * sum;
}

}

std::vector<std::string> corpusWords(const std::string &line, bool punctuation)
{
    const std::string lowered = lowerForPattern(line);
    std::vector<std::string> words;
    size_t i = 0;
    while (i < lowered.size()) {
        if (!isLetter(lowered[i])) {
            if (punctuation && std::string_view(".,!?;:").find(lowered[i]) != std::string_view::npos)
                words.emplace_back(1, lowered[i]);
            ++i;
            continue;
        }
        size_t end = i;
        while (end < lowered.size() && isLetter(lowered[end]))
            ++end;
        if (end + 1 < lowered.size() && lowered[end] == '\'' && isLetter(lowered[end + 1])) {
            end += 1;
            while (end < lowered.size() && isLetter(lowered[end]))
                ++end;
        }
        words.push_back(lowered.substr(i, end - i));
        i = end;
    }
    return words;
}

int WordCorpus::index(const std::string &word) const
{
    const auto found = std::find(words.begin(), words.end(), word);
    return found == words.end() ? -1 : int(found - words.begin());
}

WordCorpus buildWordCorpus(const std::string &text, const CorpusConfig &config)
{
    const std::string problem = validate(config);
    if (!problem.empty())
        throw std::invalid_argument(problem);
    refuseBinaryText(text, "The corpus", "Give a plain text file, one sentence or paragraph a line.");

    // One pass: words get ids in the order they first appear, lines are kept as those ids.
    std::unordered_map<std::string, int32_t> firstIds;
    std::vector<std::string> firstWords;
    std::vector<int64_t> firstCounts;
    std::vector<int32_t> firstTokens;
    std::vector<int64_t> firstLineStarts = {0};
    WordCorpus corpus;
    size_t start = 0;
    while (start < text.size()) {
        size_t end = text.find('\n', start);
        if (end == std::string::npos)
            end = text.size();
        for (std::string &word : corpusWords(text.substr(start, end - start), config.punctuation)) {
            const auto [found, added] = firstIds.emplace(word, int32_t(firstWords.size()));
            if (added) {
                firstWords.push_back(std::move(word));
                firstCounts.push_back(0);
            }
            ++firstCounts[size_t(found->second)];
            firstTokens.push_back(found->second);
        }
        if (int64_t(firstTokens.size()) > firstLineStarts.back())
            firstLineStarts.push_back(int64_t(firstTokens.size()));
        start = end + 1;
    }
    if (firstWords.empty())
        throw std::invalid_argument("The corpus has no words: it is empty or holds no letters a-z (words are runs "
                                    "of the letters a to z, lower-cased).");
    corpus.rawTokens = int64_t(firstTokens.size());
    corpus.distinctWords = int64_t(firstWords.size());

    std::vector<int32_t> ranked(firstWords.size());
    for (size_t i = 0; i < ranked.size(); ++i)
        ranked[i] = int32_t(i);
    std::sort(ranked.begin(), ranked.end(), [&](int32_t a, int32_t b) {
        return firstCounts[size_t(a)] != firstCounts[size_t(b)] ? firstCounts[size_t(a)] > firstCounts[size_t(b)]
                                                                : firstWords[size_t(a)] < firstWords[size_t(b)];
    });
    size_t kept = 0;
    while (kept < ranked.size() && firstCounts[size_t(ranked[kept])] >= config.minCount)
        ++kept;
    if (config.maxVocabulary > 0)
        kept = std::min(kept, size_t(config.maxVocabulary));
    if (kept == 0)
        throw std::invalid_argument("No word occurs at least " + std::to_string(config.minCount) +
                                    " times (the minimum count): nothing is left to train on. Lower the minimum "
                                    "count or give a larger corpus.");

    std::vector<int32_t> finalId(firstWords.size(), -1);
    for (size_t i = 0; i < kept; ++i) {
        const size_t first = size_t(ranked[i]);
        finalId[first] = int32_t(i);
        corpus.words.push_back(firstWords[first]);
        corpus.counts.push_back(firstCounts[first]);
    }
    corpus.lineStarts.push_back(0);
    for (size_t line = 0; line + 1 < firstLineStarts.size(); ++line) {
        const size_t before = corpus.tokens.size();
        for (int64_t t = firstLineStarts[line]; t < firstLineStarts[line + 1]; ++t)
            if (const int32_t id = finalId[size_t(firstTokens[size_t(t)])]; id >= 0)
                corpus.tokens.push_back(id);
        for (size_t piece = before + kMaxLineWords; piece < corpus.tokens.size(); piece += kMaxLineWords)
            corpus.lineStarts.push_back(int64_t(piece));
        if (corpus.tokens.size() > before)
            corpus.lineStarts.push_back(int64_t(corpus.tokens.size()));
    }
    return corpus;
}

CorpusPreview previewCorpus(const WordCorpus &corpus, const CorpusConfig &corpusConfig, const Word2VecConfig &config)
{
    CorpusPreview preview;
    preview.rawTokens = corpus.rawTokens;
    preview.distinctWords = corpus.distinctWords;
    preview.vocabulary = corpus.vocabularySize();
    preview.keptTokens = int64_t(corpus.tokens.size());
    preview.parameters = 2 * int64_t(preview.vocabulary) * config.dimensions;

    std::vector<double> keep(corpus.counts.size());
    for (size_t i = 0; i < keep.size(); ++i) {
        keep[i] = keepProbability(corpus.counts[i], preview.keptTokens, corpusConfig.sample);
        preview.expectedAfterSampling += double(corpus.counts[i]) * keep[i];
    }
    for (int line = 0; line < corpus.lines(); ++line) {
        double expectedLength = 0;
        for (int64_t t = corpus.lineStarts[size_t(line)]; t < corpus.lineStarts[size_t(line) + 1]; ++t)
            expectedLength += keep[size_t(corpus.tokens[size_t(t)])];
        preview.pairsPerEpoch += expectedPairs(expectedLength, config.window, config.wholeWindow);
    }

    const double keptShare = preview.keptTokens > 0 ? preview.expectedAfterSampling / double(preview.keptTokens) : 1;
    if (corpusConfig.sample > 0 && keptShare < 0.75)
        preview.warnings.push_back("Subsampling at t = " + realText(corpusConfig.sample) + " keeps only " +
                                   percent(keptShare) + " of the tokens.");
    if (preview.distinctWords > 0) {
        const double dropped = 1 - double(preview.vocabulary) / double(preview.distinctWords);
        if (dropped >= 0.5) {
            const std::string cause = corpusConfig.maxVocabulary > 0 && preview.vocabulary == corpusConfig.maxVocabulary
                                          ? "The vocabulary cap of " + withThousands(corpusConfig.maxVocabulary)
                                          : "Min count " + std::to_string(corpusConfig.minCount);
            preview.warnings.push_back(cause + " drops " + percent(dropped) + " of the distinct words (" +
                                       percent(1 - double(preview.keptTokens) / double(preview.rawTokens)) +
                                       " of the tokens).");
        }
    }
    if (preview.vocabulary < config.dimensions)
        preview.warnings.push_back("The vocabulary has " + std::to_string(preview.vocabulary) +
                                   " words, fewer than the " + std::to_string(config.dimensions) +
                                   " dimensions: training refuses that; lower the dimensions or the minimum count.");
    if (double(preview.parameters) > 20 * preview.expectedAfterSampling)
        preview.warnings.push_back("The model has " + withThousands(preview.parameters) + " parameters for " +
                                   withThousands(std::llround(preview.expectedAfterSampling)) +
                                   " tokens: it will memorise more than it generalises.");
    return preview;
}
