#pragma once

#include "engine/core/configfield.h"
#include "engine/core/optimizer.h"

#include <cstdint>
#include <string>
#include <vector>

struct TrainingConfig {
    // Twice the reference's 1e-3, for batches up to twice its 64: fewer, larger steps (the
    // schedules measured are in docs/benchmarks.md, "Time to 99% and the schedules tried").
    double learningRate = 2e-3;
    double learningRateDecay = 0.5;  // factor applied after an epoch that does not improve validation loss; 1: off
    // Factor by which the rate shrinks over every epoch, a little at each step: big steps while
    // the model is far off, small ones once it is close. 0: auto (effectiveEpochDecay(), 0.5 for
    // generated sentences and 1 for a corpus, whose rate falls only after an epoch that did not help).
    double learningRateEpochDecay = 0;
    // The rate rises linearly to learningRate over this many steps, while Adam's moment
    // estimates still rest on few gradients.
    int warmupSteps = 40;
    int batchSize = 128;
    // The first epoch's batch, doubled every epoch up to batchSize (0: batchSize throughout): four
    // times the steps while the model is far off, which is what the first epoch needs most.
    int batchStart = 32;
    int epochs = 30;
    // Always the reference word (the reference uses 0.5): a batch whose early steps ran free could
    // derail a step, so accuracy swung from batch to batch. Epochs are faster too: no step waits
    // for the model's own guess.
    double teacherForcing = 1.0;
    double clipNorm = 1.0;       // 0: no clipping
    double weightDecay = 0.0;
    OptimizerKind optimizer = OptimizerKind::Adam;
    double momentum = 0.0;  // SGD only
    double unknownWordRate = 0.02;  // source words replaced by <UNK> in training, so UNK copying is learnt
    int patience = 5;            // epochs without a better validation loss before stopping; 0: never
    std::uint64_t seed = 42;
    int threads = 0;             // 0: all cores (resolvedThreads())
    std::string checkpointPath;  // best model (by validation loss) is saved here when set
};

// Every field of TrainingConfig but `checkpointPath` (where the caller saves, not a setting): key,
// range, help and access (see ConfigField).
const std::vector<ConfigField<TrainingConfig>> &trainingConfigFields();

// Empty when valid, otherwise a message naming the offending field.
std::string validate(const TrainingConfig &config);

// The threads a run with `config` trains on: `threads`, or every core when it is 0.
int trainingThreads(const TrainingConfig &config);

// Generated sentences: the rate halves over every epoch. A corpus needs more epochs than the
// 34-word task, and halving froze it by epoch 6; at a constant rate the pointer model's validation
// swung back and forth (docs/benchmarks.md, "Real text"), so it shrinks gently.
constexpr double kGeneratedEpochDecay = 0.5;
constexpr double kCorpusEpochDecay = 0.8;

// The per-epoch learning-rate decay: training.learningRateEpochDecay, or on auto
// kCorpusEpochDecay for a corpus and kGeneratedEpochDecay for generated sentences.
double effectiveEpochDecay(const TrainingConfig &training, bool corpus);
