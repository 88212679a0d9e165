#pragma once

#include "engine/attention/trainer.h"
#include "engine/core/dataset.h"

#include <atomic>
#include <string>

struct AttentionProject;

// How close training a project's run again came to the run it keeps. Timings are left out: they
// are never the same twice.
struct Reproduction {
    int epochsStored = 0;
    int epochsRun = 0;
    // Over the epochs both have: training and validation loss, validation exact match.
    double largestHistoryDifference = 0;
    // Between the best models' weights; infinite when their shapes or vocabularies differ.
    double largestWeightDifference = 0;
    bool identical = false;  // same epochs, every figure and weight equal bit for bit
    TrainingOutcome outcome;
};

// The sentences `project` was trained on: from its embedded corpus, from the corpus file it names,
// or generated. Throws DatasetError when the corpus is neither embedded nor readable.
Dataset projectDataset(const AttentionProject &project);

// Trains the project's model settings on its dataset with its training settings and seed, on
// `threads` threads, and compares the result with the stored run. Throws DatasetError or
// std::invalid_argument as training does.
Reproduction reproduce(const AttentionProject &project, int threads, const Trainer::Callbacks &callbacks = {},
                       const std::atomic<bool> *stop = nullptr);
