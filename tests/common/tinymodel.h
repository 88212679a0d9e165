#pragma once

#include "engine/attention/seq2seqmodel.h"
#include "engine/attention/trainer.h"
#include "engine/core/dataset.h"

// A small reversal task and model that train to perfection in a few seconds on one core.
inline DatasetConfig tinyDataset()
{
    DatasetConfig d;
    d.words = {"red", "green", "blue", "cat", "dog", "sun", "moon", "tree"};
    d.minLength = 2;
    d.maxLength = 5;
    d.trainSize = 1500;
    d.valSize = 100;
    d.testSize = 100;
    d.seed = 3;
    return d;
}

inline ModelConfig tinyModelConfig()
{
    ModelConfig m;
    m.embedSize = 16;
    m.hiddenSize = 32;
    m.layers = 1;
    m.dropout = 0.0;
    return m;
}

inline TrainingConfig tinyTraining()
{
    TrainingConfig t;
    t.learningRate = 1e-2;
    // Many short epochs at one rate and batch: the schedule is for the real task's few long ones.
    t.learningRateEpochDecay = 1;
    t.warmupSteps = 0;
    t.batchStart = 0;
    t.batchSize = 32;
    t.epochs = 20;
    t.patience = 0;
    t.threads = 1;
    t.unknownWordRate = 0.1;
    t.seed = 1;
    return t;
}

// Smaller still, for tests of signals, threads and widgets rather than of learning: six words,
// 19 batches per epoch, and a unidirectional encoder that still learns the task in 30 epochs.
inline DatasetConfig quickDataset()
{
    DatasetConfig d;
    d.words = {"red", "green", "blue", "cat", "dog", "fish"};
    d.minLength = 2;
    d.maxLength = 4;
    d.trainSize = 300;
    d.valSize = 40;
    d.testSize = 30;
    return d;
}

inline ModelConfig quickModelConfig()
{
    ModelConfig m = tinyModelConfig();
    m.bidirectional = false;
    return m;
}

inline TrainingConfig quickTraining(int epochs)
{
    TrainingConfig t;
    t.epochs = epochs;
    t.batchSize = 16;
    t.learningRate = 0.01;
    t.learningRateEpochDecay = 1;
    t.warmupSteps = 0;
    t.batchStart = 0;
    t.patience = 0;
    t.threads = 1;
    return t;
}


// An untrained model over seven words, for the embedding panel: small enough to build at once.
inline ModelConfig panelModelConfig()
{
    ModelConfig m;
    m.embedSize = 6;
    m.hiddenSize = 8;
    m.layers = 1;
    return m;
}

inline Vocabulary panelVocabulary()
{
    return Vocabulary({"cat", "dog", "car", "bus", "tree", "fox", "sky"});
}
