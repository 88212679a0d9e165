#pragma once

#include "engine/core/lengthaccuracy.h"

#include <QString>

#include <cstdint>
#include <map>

// A finished training run one lab offers the others, so that models of different architectures
// trained on the same data can be put side by side: what each measured, in the same terms.
struct SharedRun {
    QString architecture;  // "RNN", "Transformer"
    QString label;         // what tells it from other runs of its lab: "bahdanau, hidden 64"
    QString data;          // what it trained on; runs are comparable only when this is equal
    std::uint64_t seed = 0;  // of the initial weights
    double testExactMatch = 0;                // 0..1, on the data's test split
    std::map<int, LengthAccuracy> byLength;   // probe sentences, up to beyond the trained lengths
    int trainedMinLength = 0;  // the sentence lengths it trained on
    int trainedMaxLength = 0;
    double secondsTo99 = -1;     // training seconds until validation exact match first reached 99%; < 0: never
    std::int64_t parameters = 0;
    double samplesPerSecond = 0;  // median over the epochs
};
