#pragma once

#include "engine/attention/dataset.h"
#include "engine/attention/evaluation.h"
#include "engine/attention/modelconfig.h"
#include "engine/attention/trainer.h"
#include "engine/attention/trainingconfig.h"

#include <atomic>
#include <string>
#include <vector>

// One configuration of a comparison, trained and measured.
struct ExperimentResult {
    std::string label;             // what tells it apart from the others, e.g. "luong-dot"
    ModelConfig model;
    std::vector<EpochStats> history;
    TrainingOutcome outcome;
    EvaluationReport test;         // the dataset's test split
    EvaluationReport probe;        // probeSet(): lengths up to beyond the trained range
    double seconds = 0;            // training and evaluation
    std::int64_t parameters = 0;
};

// Sentences from the dataset's words at lengths `minLength`..`maxLength` (drawn uniformly), with
// their own seed (the dataset's + 1), so lengths past the trained range can be probed. Generated
// datasets only.
std::vector<SentencePair> probeSet(const DatasetConfig &config, int maxLength, int count);

// Builds a model for `model` on `data` (vocabulary from its training split), trains it with
// `training` (the same seed for every configuration) and evaluates it on the test split and on
// `probe`. As in training, the best epoch is saved to `training.checkpointPath` when it is set.
ExperimentResult runExperiment(const std::string &label, const Dataset &data, const DatasetConfig &dataset,
                               const ModelConfig &model, TrainingConfig training,
                               const std::vector<SentencePair> &probe, const Trainer::Callbacks &callbacks = {},
                               const std::atomic<bool> *stop = nullptr);
