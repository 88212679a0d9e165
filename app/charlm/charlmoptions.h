#pragma once

#include "engine/charlm/charsampling.h"
#include "engine/core/configfield.h"

#include <cstdint>
#include <vector>

// What the charlm and generate commands read beyond the lab's configuration tables, described once
// for their parsers and for --help.

constexpr int kPrimeCharacters = 10;              // charlm's samples start from the text's first ones
constexpr double kSampleTemperatures[] = {0.5, 0.8, 1.0};  // charlm's samples.txt
constexpr int kSampleCharacters = 400;            // per sample in samples.txt

// generate's sampling options, read into SamplingOptions (the prime is read apart: it is text).
inline const std::vector<ConfigField<SamplingOptions>> &generateFields()
{
    using S = SamplingOptions;
    static const std::vector<ConfigField<S>> fields = {
        realField<&S::temperature>("temperature", "temperature", 0, 10, 0.1,
                                   "Divides the logits before the softmax: below 1 the likely characters get "
                                   "likelier (the text loops), above 1 the unlikely ones catch up (it babbles).",
                                   "greedy"),
        integerField<&S::topK>("top-k", "top-k", 0, 100000, "Draws only from the K most likely next characters.",
                               "all"),
        integerField<&S::length>("length", "length", 1, kMaxSampleLength,
                                 "Characters generated after the prime."),
        integerField<&S::seed>("seed", "seed", 0, 2147483647.0,
                               "Seeds the draws: the same model, seed and options write the same text."),
    };
    return fields;
}
