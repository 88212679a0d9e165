#pragma once

#include "engine/charlm/charinferencenet.h"
#include "engine/charlm/chartext.h"

#include <cstdint>
#include <string>
#include <vector>

constexpr int kMaxSampleLength = 1000000;

struct SamplingOptions {
    double temperature = 0.8;  // 0: greedy (argmax), the limit of T -> 0
    int topK = 0;              // draw only from the k most likely characters; 0: from all
    std::u32string prime;      // read first; characters outside the alphabet are left out
    int length = 200;          // characters generated after the prime, at most kMaxSampleLength
    uint64_t seed = 0;
};

struct SampledText {
    std::u32string prime;                 // as read (characters outside the alphabet left out)
    std::u32string generated;
    std::vector<double> entropyBits;      // per generated character: entropy of the distribution
                                          // it was drawn from (after temperature and top-k)
    std::vector<double> probabilities;    // per generated character: its probability there
};

// Throws std::invalid_argument when the prime has no character of the alphabet (there would be
// nothing to start from) or the options are out of range (a negative temperature or top-k, a
// length outside 0..kMaxSampleLength).
SampledText sampleText(const CharInferenceNet &net, const SamplingOptions &options);

// The distribution sampling draws from: softmax(logits / temperature) restricted to the top k
// (renormalised); temperature 0 puts all mass on the argmax (the first one on a tie).
std::vector<double> samplingDistribution(const float *logits, int count, double temperature, int topK);

// Memorisation: how many characters of `ids` after its first `primeLength` the model regenerates
// exactly when it decodes greedily from them; stops at the first mismatch or after `limit`.
// Throws std::invalid_argument when primeLength < 1.
int64_t memorisedLength(const CharInferenceNet &net, const std::vector<int32_t> &ids, int primeLength, int64_t limit);

// The memorisation meter both front ends show: memorisedLength greedy from the training text's
// first character, at most kMemorisationLimit characters counted (all of a shorter training text),
// never reading into the validation tail.
constexpr int64_t kMemorisationLimit = 2000;
int64_t memorisationLimit(const CharText &text);
int64_t memorisationMeter(const CharInferenceNet &net, const CharText &text);

// The hidden-state readout of a text: each layer's units after reading each character, and the
// top-k next characters there. A character outside the alphabet is not read: the state carries
// over it, and its position is marked unknown with no prediction.
struct CharReadout {
    std::u32string text;
    int layers = 0;
    int hidden = 0;
    std::vector<float> activations;     // text.size() x layers x hidden
    std::vector<bool> unknown;          // per position
    struct Next {
        char32_t character;
        double probability;
    };
    std::vector<std::vector<Next>> next;  // per position, most likely first

    float activation(size_t position, int layer, int unit) const
    {
        return activations[(position * size_t(layers) + size_t(layer)) * size_t(hidden) + size_t(unit)];
    }
};
CharReadout readOut(const CharInferenceNet &net, const std::u32string &text, int topK);
