#include "app/transformer/transformerrun.h"

#include "engine/transformer/transformermodel.h"

#include <cctype>
#include <stdexcept>

namespace {

// The epoch of this run's lowest validation loss, the one the trainer keeps; 0 for none.
int bestEpochSince(const std::vector<EpochStats> &history, std::size_t first)
{
    int best = 0;
    double lowest = 0;
    for (std::size_t i = first; i < history.size(); ++i)
        if (best == 0 || history[i].valLoss < lowest) {
            best = history[i].epoch;
            lowest = history[i].valLoss;
        }
    return best;
}

}  // namespace

const char *TransformerRunEnd::statusName() const
{
    switch (status) {
    case Status::Finished: return "finished";
    case Status::Stopped: return "stopped";
    case Status::Diverged: return "diverged";
    }
    return "unknown";
}

TransformerRunEnd trainTransformer(TransformerModel &model, const Dataset &data,
                                   const TransformerTrainingConfig &training,
                                   const TransformerTrainer::Callbacks &callbacks, const std::atomic<bool> *stop)
{
    const std::size_t firstEpoch = model.history.size();
    TransformerTrainer trainer(model, data, training);
    TransformerRunEnd end;
    try {
        const TransformerRun run = trainer.run(callbacks, stop);
        end.bestEpoch = run.bestEpoch;
        if (run.stopped) {
            end.status = TransformerRunEnd::Status::Stopped;
            end.message = "Stopped during epoch " + std::to_string(int(firstEpoch) + run.epochsDone + 1) + ".";
        } else {
            end.message = "Finished; best epoch " + std::to_string(run.bestEpoch) + ".";
        }
    } catch (const std::runtime_error &e) {
        end.status = TransformerRunEnd::Status::Diverged;
        end.bestEpoch = bestEpochSince(model.history, firstEpoch);
        std::string message = e.what();
        if (!message.empty())
            message[0] = char(std::toupper(static_cast<unsigned char>(message[0])));
        end.message = message;
    }
    return end;
}
