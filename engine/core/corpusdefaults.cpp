#include "engine/core/corpusdefaults.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <sstream>

int lengthPercentile(std::vector<int> lengths, int percentile)
{
    if (lengths.empty())
        return 0;
    const std::size_t rank = std::size_t(std::ceil(double(percentile) / 100.0 * double(lengths.size())));
    const std::size_t index = std::clamp<std::size_t>(rank, 1, lengths.size()) - 1;
    std::nth_element(lengths.begin(), lengths.begin() + std::ptrdiff_t(index), lengths.end());
    return lengths[index];
}

int generatedMaxLength(const DatasetConfig &config)
{
    return config.maxLength > 0 ? config.maxLength : std::max(kGeneratedMaxLength, config.minLength);
}

std::string describeData(const DatasetConfig &config)
{
    std::ostringstream out;
    out << taskName(config.task) << ", ";
    if (!config.corpusPath.empty()) {
        out << std::filesystem::path(config.corpusPath).filename().string() << ", lines of " << config.minLength << "-"
            << (config.maxLength > 0 ? std::to_string(config.maxLength) : std::string("auto")) << " words, "
            << config.valFraction << "/" << config.testFraction << " held out";
    } else {
        const char *list = config.words == DatasetConfig::defaultWords()  ? " default"
                           : config.words == DatasetConfig::digitWords() ? " digit"
                                                                          : "";
        out << "the " << config.words.size() << list << " words, " << config.minLength << "-"
            << generatedMaxLength(config) << " long, " << config.trainSize << "/" << config.valSize << "/"
            << config.testSize << " sentences";
    }
    out << ", seed " << config.seed;
    return out.str();
}

int corpusMaxLength(const DatasetConfig &config, const std::vector<int> &lineLengths)
{
    if (config.maxLength > 0)
        return config.maxLength;
    const int percentile = std::min(lengthPercentile(lineLengths, kCorpusLengthPercentile), kLongestSentence);
    return std::max(percentile, config.minLength);
}

int effectiveMinCount(const DatasetConfig &config)
{
    if (config.minCount > 0)
        return config.minCount;
    return config.corpusPath.empty() ? 1 : kCorpusMinCount;
}

int effectiveMaxVocabulary(const DatasetConfig &config)
{
    if (config.maxVocabulary > 0)
        return config.maxVocabulary;
    return config.corpusPath.empty() ? 0 : kCorpusMaxVocabulary;
}

Vocabulary vocabularyFor(const Dataset &data, const DatasetConfig &config)
{
    return Vocabulary::build(data.train, effectiveMaxVocabulary(config), effectiveMinCount(config));
}
