#pragma once

#include "engine/core/dataset.h"
#include "engine/core/epochstats.h"
#include "engine/transformer/transformertrainingconfig.h"

#include <atomic>
#include <functional>

class TransformerModel;

// What a run came to: the epochs it completed, and the best of them by validation loss (0: none).
struct TransformerRun {
    int epochsDone = 0;
    int bestEpoch = 0;
    bool stopped = false;
};

// Trains a TransformerModel in place with teacher forcing: the target shifted right as the
// decoder's input, cross-entropy over the real tokens, Adam (betas 0.9 and 0.98, eps 1e-9) with
// linear warm-up, global-norm clipping, batches grouped by length. After every epoch the
// validation split's loss and greedy exact match are measured; when training ends, the model
// holds the weights of the epoch with the lowest validation loss.
class TransformerTrainer
{
public:
    struct Callbacks {
        std::function<void(const BatchProgress &)> onBatch;
        std::function<void(const EpochStats &, bool isBest)> onEpoch;
    };

    // Throws std::invalid_argument, with the message to show, for settings out of range or data
    // without a training or validation sentence.
    TransformerTrainer(TransformerModel &model, const Dataset &data, const TransformerTrainingConfig &config);
    // Trains config.epochs epochs, or until *stop is set (read before every batch). Throws
    // std::runtime_error when the loss stops being finite; the model then keeps its best epoch.
    TransformerRun run(const Callbacks &callbacks = {}, const std::atomic<bool> *stop = nullptr);

private:
    TransformerModel &m_model;
    const Dataset &m_data;
    TransformerTrainingConfig m_config;
};
