#pragma once

#include "engine/core/configfield.h"
#include "engine/core/recurrentcell.h"

#include <cstdint>
#include <string>
#include <vector>

enum class CharOptimizer { Adam, Adagrad, Sgd };

// The network: characters (embedded, or one-hot when embed is 0) -> recurrent layers -> a linear
// map to the next character's logits. Named as the reference script names them.
struct CharModelConfig {
    RecurrentCell cell = RecurrentCell::Gru;
    int hidden = 128;
    int layers = 1;
    int embed = 32;  // 0: one-hot input
};

// Truncated backpropagation through time over `batch` parallel streams of the text, or with
// `wholeText` the whole training text as one sequence each epoch, from a zero state.
struct CharTrainingConfig {
    int seqLen = 64;
    int batch = 32;
    bool wholeText = false;  // one stream, one window as long as the text: full backpropagation
    double lr = 2e-3;
    CharOptimizer optimizer = CharOptimizer::Adam;
    double momentum = 0;     // SGD's
    int epochs = 20;
    double clip = 1.0;   // global gradient norm; 0: off
    double val = 0.05;   // share of the text held out at its end
    uint64_t seed = 0;
    int threads = 2;     // 0: all cores (resolvedThreads())
};

// Whole-text training keeps every step of the text for the backward pass: longer texts train in windows.
constexpr int64_t kMaxWholeTextLength = 10000;  // characters

const std::vector<ConfigField<CharModelConfig>> &charModelFields();
const std::vector<ConfigField<CharTrainingConfig>> &charTrainingFields();

// Empty when every field is in range, otherwise the message engine, UI and CLI all show.
std::string validate(const CharModelConfig &config);
std::string validate(const CharTrainingConfig &config);
