#pragma once

#include "engine/core/configfield.h"

#include <cstdint>
#include <string>
#include <vector>

class BinaryReader;
class BinaryWriter;

enum class Task { Reverse, Copy };

const char *taskName(Task task);
bool parseTask(const std::string &name, Task *task);

// The longest sentence a setting, or auto, may ask for.
constexpr int kLongestSentence = 100;

// Where sentences come from and how they are split. With an empty `corpusPath` sentences are
// generated from `words`; otherwise they are read from the file, one per line.
struct DatasetConfig {
    Task task = Task::Reverse;
    std::vector<std::string> words = defaultWords();
    std::string corpusPath;
    int minLength = 3;
    int maxLength = 0;          // 0: auto, see corpusdefaults.h
    int trainSize = 8000;
    int valSize = 1000;
    int testSize = 1000;
    double valFraction = 0.1;   // corpus only
    double testFraction = 0.1;  // corpus only
    bool lowercase = true;
    int maxVocabulary = 0;      // 0: no limit
    int minCount = 0;           // 0: auto, see corpusdefaults.h
    std::uint64_t seed = 42;

    // The reference assignment's 34 words.
    static std::vector<std::string> defaultWords();
    // 0 to 9: the course's toy exercise, reversing (or copying) digit sequences such as 3 1 4 1 5.
    static std::vector<std::string> digitWords();
};

// Every field of DatasetConfig but `words` (a list, read by each reader in its own way): key,
// range, help and access (see ConfigField).
const std::vector<ConfigField<DatasetConfig>> &datasetConfigFields();

// Empty when valid, otherwise a message naming the offending field.
std::string validate(const DatasetConfig &config);

// The config in a binary file (the checkpoint, the project): its table's fields, then `words`.
// readDatasetConfig() throws BinaryFormatError when the data is damaged.
void writeDatasetConfig(BinaryWriter &w, const DatasetConfig &config);
DatasetConfig readDatasetConfig(BinaryReader &r);
