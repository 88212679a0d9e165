#pragma once

#include "engine/transformer/transformertrainer.h"

#include <atomic>
#include <string>

// How a command's training run ended, as metrics.json and comparison.json say it.
struct TransformerRunEnd {
    enum class Status { Finished, Stopped, Diverged };
    Status status = Status::Finished;
    int bestEpoch = 0;  // 0: no epoch completed
    std::string message;  // "Finished; best epoch 9."

    const char *statusName() const;  // "finished", "stopped", "diverged"
};

// TransformerTrainer's run, which ends with the model on its best epoch: a loss that stops being
// finite ends it as Diverged rather than with an exception. Throws std::invalid_argument for data
// the trainer refuses.
TransformerRunEnd trainTransformer(TransformerModel &model, const Dataset &data,
                                   const TransformerTrainingConfig &training,
                                   const TransformerTrainer::Callbacks &callbacks, const std::atomic<bool> *stop);
