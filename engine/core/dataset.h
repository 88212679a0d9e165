#pragma once

#include "engine/core/datasetconfig.h"
#include "engine/core/sentencepair.h"

#include <stdexcept>
#include <string>
#include <vector>

struct DatasetError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Train/validation/test splits plus what was left out of a corpus and why, and the length limit.
struct Dataset {
    std::vector<SentencePair> train;
    std::vector<SentencePair> val;
    std::vector<SentencePair> test;
    int skippedBlank = 0;
    int skippedTooLong = 0;
    int skippedTooShort = 0;
    bool fromCorpus = false;
    // The longest sentence kept or generated: the setting, or what "auto" came to (corpusdefaults.h).
    int maxLength = 0;
    // The percentile of the corpus's line lengths that maxLength is, when auto chose it; otherwise 0.
    int lengthPercentile = 0;

    // Same config (and seed) gives the same data, always. Throws DatasetError with a clear message
    // for a missing, unreadable, empty or too small corpus; nothing is half-loaded.
    static Dataset build(const DatasetConfig &config);
};

// The splits build() makes of a corpus, from `text` rather than the file at config.corpusPath: a
// corpus kept elsewhere, inside a project file. `what` names it in messages ("the embedded corpus").
Dataset parseCorpus(const DatasetConfig &config, const std::string &text, const std::string &what);

// The target the task asks for: the words reversed, or copied.
std::vector<std::string> targetFor(Task task, const std::vector<std::string> &source);
// The source word output word `step` of a sentence of `sourceWords` words must come from: n-1-t
// (reverse) or t (copy); -1 past the sentence's words.
int rightSourcePosition(Task task, int sourceWords, int step);

// Sentences from the dataset's words at lengths `minLength`..`maxLength` (drawn uniformly), with
// their own seed (the dataset's + 1), so lengths past the trained range can be probed. Generated
// datasets only.
std::vector<SentencePair> probeSet(const DatasetConfig &config, int maxLength, int count);

// A few pairs for a live preview, generated as `build` would.
std::vector<SentencePair> previewPairs(const DatasetConfig &config, int count);
