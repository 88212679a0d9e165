#pragma once

#include "engine/core/datasetconfig.h"
#include "engine/core/epochstats.h"
#include "engine/core/faithfulnessreport.h"
#include "engine/core/vocabulary.h"
#include "engine/transformer/headscores.h"
#include "engine/transformer/transformerinference.h"
#include "engine/transformer/transformermodel.h"

#include <QMetaType>
#include <QString>

#include <memory>

// What the Transformer lab's jobs report, as values that cross to the GUI thread.

// Weights the views decode with on any thread: the hand-written decoder of one epoch's weights and
// the vocabulary it reads.
struct TransformerSnapshot {
    std::shared_ptr<const TransformerInference> inference;
    Vocabulary vocabulary;
    TransformerConfig config;
    Task task = Task::Reverse;  // what the known answer of each output word is
    int epoch = 0;
    int64_t parameters = 0;
    // Each head's scores over the test split: measured for the epoch a run keeps, null for the others.
    std::shared_ptr<const SplitHeadScores> testHeads;
    // The network's parameters, for the attribution methods, which need LibTorch's gradients and so a
    // TransformerModel of their own (TransformerModel::withParameters); null: not explainable.
    std::shared_ptr<const std::vector<NamedTensor>> weights;
};

// The snapshot of `model`'s current weights after `epoch`, with its parameters.
std::shared_ptr<const TransformerSnapshot> transformerSnapshotOf(const TransformerModel &model, int epoch);

struct TransformerEpochDone {
    EpochStats stats;
    bool isBest = false;
    std::shared_ptr<const TransformerSnapshot> snapshot;  // the weights the epoch ended on
};

// The end of a run: the best epoch's weights and how they do on the test split, and on generated
// sentences up to 3x the trained length (none for a corpus).
struct TransformerTrainingFinished {
    int epochsDone = 0;
    int epochs = 0;
    bool stopped = false;
    std::shared_ptr<const TransformerSnapshot> best;
    TransformerScore test;
    TransformerScore probe;
    int trainedMinLength = 0;
    int trainedMaxLength = 0;
    std::shared_ptr<const std::string> checkpoint;  // the best epoch as File ▸ Save writes it
};

// Measuring how faithful the attribution methods are to a model, on a sample of the test split:
// after an epoch while training, or for a model opened or trained (epoch 0).
struct TransformerFaithfulnessProgress {
    int epoch = 0;
    int done = 0;  // sentences
    int total = 0;
};

struct TransformerFaithfulnessMeasured {
    int epoch = 0;
    FaithfulnessReport report;
    QString problem;  // why nothing was measured; empty when the report holds
};

Q_DECLARE_METATYPE(TransformerEpochDone)
Q_DECLARE_METATYPE(TransformerFaithfulnessProgress)
Q_DECLARE_METATYPE(TransformerFaithfulnessMeasured)
Q_DECLARE_METATYPE(TransformerTrainingFinished)
