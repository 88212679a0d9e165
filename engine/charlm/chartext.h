#pragma once

#include "engine/charlm/charlmconfig.h"

#include <cstdint>
#include <string>
#include <vector>

// A training text as the character lab reads it: UTF-8 decoded to characters (code points), its
// alphabet, and the split into a training part and a held-out validation tail.
struct CharText {
    std::u32string text;
    std::u32string alphabet;    // the distinct characters, sorted by code point
    std::vector<int32_t> ids;   // the text as indices into the alphabet
    int64_t trainLength = 0;    // ids[0, trainLength) train; ids[trainLength, end) validate
    std::string validationNote; // when there is no validation tail, why (shown as it is); else empty

    int alphabetSize() const { return int(alphabet.size()); }
    int64_t length() const { return int64_t(ids.size()); }
    int64_t validationLength() const { return length() - trainLength; }
    // The alphabet index of `c`, or -1 when the text has no such character.
    int idOf(char32_t c) const;
};

// Reads `utf8` and holds out its last `validationShare` (at least one window of `seqLen` + 1
// characters, as the reference script does) for validation; a text too short to spare that and
// still leave two windows to train on gets none, and validationNote says so.
// Throws std::invalid_argument with the message every front end shows: an empty text, a binary
// file, one character repeated (nothing to predict), a text longer than kMaxCharTextLength.
CharText buildCharText(const std::string &utf8, double validationShare, int seqLen);

constexpr int64_t kMaxCharTextLength = 64 << 20;  // characters

// The training part cut into parallel streams, as CharTrainer reads it: every character after the
// first is a target once an epoch, the tail included (the last window of a stream may be short).
struct CharStreams {
    int streams = 0;            // at most the batch setting, fewer when the text is short
    int64_t streamLength = 0;   // targets per stream (the last stream may have fewer)
    int64_t windowsPerEpoch = 0;
    int64_t targetsPerEpoch = 0; // trainLength - 1
};
CharStreams charStreams(int64_t trainLength, int batch, int seqLen);

// What the setup panel shows before training.
struct CharTextPreview {
    int64_t characters = 0;
    int alphabet = 0;
    int64_t trainCharacters = 0;
    int64_t validationCharacters = 0;
    std::string validationNote;
    CharStreams streams;
    int64_t parameters = 0;
    std::vector<std::string> warnings;  // plain sentences: a model far larger than its text, ...
};
CharTextPreview previewCharText(const CharText &text, const CharModelConfig &model, const CharTrainingConfig &training);

// The parameters of a model over an alphabet of `alphabetSize` characters.
int64_t charModelParameterCount(const CharModelConfig &config, int alphabetSize);
