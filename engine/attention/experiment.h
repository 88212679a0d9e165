#pragma once

#include "engine/attention/evaluation.h"
#include "engine/attention/modelconfig.h"
#include "engine/attention/trainer.h"
#include "engine/attention/trainingconfig.h"
#include "engine/core/dataset.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

// One configuration of a comparison, trained and measured.
struct ExperimentResult {
    std::string label;             // what tells it apart from the others, e.g. "luong-dot"
    ModelConfig model;
    std::uint64_t modelSeed = 0;   // of the initial weights
    std::vector<EpochStats> history;
    TrainingOutcome outcome;
    EvaluationReport test;         // the dataset's test split
    EvaluationReport probe;        // probeSet(): lengths up to beyond the trained range
    double seconds = 0;            // training and evaluation
    std::int64_t parameters = 0;
    std::shared_ptr<const Seq2SeqModel> best;  // the best epoch's weights; null when no epoch completed
};

// One training run of a comparison: a configuration and the seed of its initial weights.
struct ExperimentRun {
    ModelConfig model;
    std::uint64_t modelSeed = 0;
    int configuration = 0;  // which of the configurations it repeats
    int repeat = 0;         // 0 .. repeats - 1
};

// Each of `configs` `repeats` times in a row, with model seeds `seed`, `seed` + 1, ...: runs of one
// configuration differ only in how their weights start (data, batch order and dropout keep the
// training seed), so their spread is what seed noise alone does.
std::vector<ExperimentRun> experimentRuns(const std::vector<ModelConfig> &configs, std::uint64_t seed, int repeats);

// Builds a model for `model` on `data` (vocabulary from its training split) with initial weights
// from `modelSeed`, trains it with `training` and evaluates it on the test split and on `probe`. As
// in training, the best epoch is saved to `training.checkpointPath` when it is set.
ExperimentResult runExperiment(const std::string &label, const Dataset &data, const DatasetConfig &dataset,
                               const ModelConfig &model, std::uint64_t modelSeed, TrainingConfig training,
                               const std::vector<SentencePair> &probe, const Trainer::Callbacks &callbacks = {},
                               const std::atomic<bool> *stop = nullptr);
