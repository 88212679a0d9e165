#pragma once

#include "engine/attention/trainingconfig.h"
#include "engine/core/dataset.h"
#include "engine/core/epochstats.h"

#include <atomic>
#include <functional>
#include <string>

class Seq2SeqModel;

struct TrainingOutcome {
    enum class Status { Finished, EarlyStopped, Stopped, Diverged };
    Status status = Status::Finished;
    std::string message;   // one line for the user
    int bestEpoch = 0;     // 0: no epoch completed
    double bestValLoss = 0;
};

// Trains a model in place with teacher forcing, hand-written Adam and global-norm clipping.
// Drive it from any thread: callbacks run on the calling thread, `stop` is checked every batch.
// When training ends, `model` holds the weights of the best epoch (lowest validation loss).
class Trainer
{
public:
    struct Callbacks {
        std::function<void(const BatchProgress &)> onBatch;
        // `isBest`: this epoch's validation loss is the lowest so far (and it was saved).
        std::function<void(const EpochStats &, bool isBest)> onEpoch;
    };

    Trainer(Seq2SeqModel &model, const Dataset &data, const TrainingConfig &config);
    TrainingOutcome run(const Callbacks &callbacks = {}, const std::atomic<bool> *stop = nullptr);

private:
    Seq2SeqModel &m_model;
    const Dataset &m_data;
    TrainingConfig m_config;
};
