#include "engine/core/datasetconfig.h"

#include "engine/core/configrecord.h"
#include "engine/core/trainingfields.h"

#include <sstream>

const char *taskName(Task task)
{
    return task == Task::Copy ? "copy" : "reverse";
}

bool parseTask(const std::string &name, Task *task)
{
    if (name == "reverse")
        *task = Task::Reverse;
    else if (name == "copy")
        *task = Task::Copy;
    else
        return false;
    return true;
}

std::vector<std::string> DatasetConfig::defaultWords()
{
    return {"the",  "cat",   "sat",   "dog",  "ran",   "big",    "small", "red",   "blue",
            "on",   "in",    "mat",   "hat",  "house", "car",    "tree",  "bird",  "fish",
            "quick", "lazy", "brown", "fox",  "jumps", "over",   "eats",  "drinks", "happy",
            "sad",  "fast",  "slow",  "old",  "new",   "hot",    "cold"};
}

std::vector<std::string> DatasetConfig::digitWords()
{
    return {"0", "1", "2", "3", "4", "5", "6", "7", "8", "9"};
}

const std::vector<ConfigField<DatasetConfig>> &datasetConfigFields()
{
    using D = DatasetConfig;
    constexpr int kMaxSplitSize = 10000000;
    static const std::vector<ConfigField<D>> fields = {
        choiceField<&D::task>("task", "task", {taskName(Task::Reverse), taskName(Task::Copy)},
                              "What the model learns to output: the input words in reverse order, or the same words "
                              "unchanged (a control task)."),
        pathField<&D::corpusPath>("corpus", "corpus file",
                                  "Sentences from this UTF-8 text file, one per line, instead of generated ones; "
                                  "lines outside the length range are skipped."),
        flagField<&D::lowercase, /*Inverted=*/true>("keep-case", "keep upper case",
                                                    "Keep the text's case; otherwise ASCII letters are folded to "
                                                    "lower case, so \"The\" and \"the\" are one word."),
        integerField<&D::minLength>("min-len", "minimum length", 1, kLongestSentence, "Shortest sentence, in words."),
        integerField<&D::maxLength>("max-len", "maximum length", 0, kLongestSentence,
                                    "Longest sentence, in words (a punctuation mark counts as one); auto: 10 for "
                                    "generated sentences, the 99th percentile of a corpus file's line lengths.",
                                    "auto"),
        integerField<&D::trainSize>("train", "training size", 1, kMaxSplitSize,
                                    "Generated sentences the model learns from."),
        integerField<&D::valSize>("val", "validation size", 1, kMaxSplitSize,
                                  "Generated sentences scored after each epoch to pick the best model and to stop "
                                  "early."),
        integerField<&D::testSize>("test", "test size", 1, kMaxSplitSize,
                                   "Generated sentences held out and scored once training ends."),
        realField<&D::valFraction>("val-fraction", "validation fraction", 0.01, 0.9, 0.01,
                                   "Share of a corpus file's sentences used for validation."),
        realField<&D::testFraction>("test-fraction", "test fraction", 0.01, 0.9, 0.01,
                                    "Share of a corpus file's sentences held out for the final test."),
        integerField<&D::maxVocabulary>("max-vocabulary", "largest vocabulary", 0, 1000000,
                                        "Keep only the most frequent words; the rest become <UNK>; auto: 10,000 "
                                        "for a corpus file, no limit for generated sentences.",
                                        "auto"),
        integerField<&D::minCount>("min-count", "minimum word count", 0, 1000,
                                   "Words seen fewer times than this in the training split become <UNK>; auto: 2 "
                                   "for a corpus file, 1 for generated sentences.",
                                   "auto"),
        integerField<&D::seed>("data-seed", "data seed", 0, kMaxSeed,
                               "Seeds the sentences and their split: the same seed and settings always give the same "
                               "data."),
    };
    return fields;
}

std::string validate(const DatasetConfig &c)
{
    std::ostringstream out;
    if (c.corpusPath.empty() && c.words.empty())
        out << "the word list is empty";
    else if (!c.corpusPath.empty()
             && !(c.valFraction > 0 && c.testFraction > 0 && c.valFraction + c.testFraction < 1))  // NaN too
        out << "validation and test fractions must be positive and leave some training data";
    else if (const std::string problem = checkFields(c, datasetConfigFields()); !problem.empty())
        out << problem;
    else if (c.maxLength > 0 && c.maxLength < c.minLength)
        out << "maximum length " << c.maxLength << " is below the minimum length " << c.minLength;
    return out.str();
}

void writeDatasetConfig(BinaryWriter &w, const DatasetConfig &config)
{
    writeConfig(w, config, datasetConfigFields());
    w.u32(std::uint32_t(config.words.size()));
    for (const std::string &word : config.words)
        w.string(word);
}

DatasetConfig readDatasetConfig(BinaryReader &r)
{
    DatasetConfig config = readConfig(r, datasetConfigFields(), "dataset");
    config.words.resize(r.count(/*itemBytes=*/4, 1u << 24));
    for (std::string &word : config.words)
        word = r.string();
    return config;
}
