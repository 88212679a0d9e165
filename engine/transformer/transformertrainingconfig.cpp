#include "engine/transformer/transformertrainingconfig.h"

#include "engine/core/learningrateschedule.h"
#include "engine/core/trainingfields.h"

#include <algorithm>
#include <cmath>

const std::vector<ConfigField<TransformerTrainingConfig>> &transformerTrainingConfigFields()
{
    using T = TransformerTrainingConfig;
    static const std::vector<ConfigField<T>> fields = {
        realField<&T::learningRate>("lr", "learning rate", 1e-6, 10, 1e-4,
                                    "Step size of the Adam optimizer once warmed up: too high and the loss jumps or "
                                    "diverges, too low and learning crawls."),
        integerField<&T::warmupSteps>("warmup", "warm-up steps", 0, 100000,
                                      "The learning rate rises linearly from nearly 0 over this many steps, while "
                                      "Adam's moment estimates still rest on few gradients."),
        choiceField<&T::schedule>("schedule", "after the warm-up", {"constant", "inverse-sqrt"},
                                  "What the learning rate does after the warm-up: stay, or fall as one over the "
                                  "square root of the step, as in the 2017 paper."),
        realField<&T::epochDecay>("lr-epoch-decay", "learning-rate decay per epoch", 0.01, 1, 0.05,
                                  "Factor by which the learning rate shrinks over every epoch, a little at each "
                                  "step: large steps while the model is far off, small ones once it is close; 1: "
                                  "off."),
        integerField<&T::batchSize>("batch", "batch size", 1, 65536, "Sentences per gradient step."),
        epochsField<&T::epochs>("Passes over the training sentences."),
        realField<&T::clipNorm>("clip", "gradient clipping", 0, 1000, 0.1,
                                "Gradients whose overall length exceeds this are scaled down to it.", "off"),
        seedField<&T::seed>("Seeds the initial weights, the dropout and the batch order: the same seed and settings "
                            "train the same model."),
        threadsField<&T::threads>("CPU threads for training; all cores is fastest but slows the rest of the "
                                  "machine."),
    };
    return fields;
}

std::string validate(const TransformerTrainingConfig &config)
{
    return checkFields(config, transformerTrainingConfigFields());
}

double learningRateAt(const TransformerTrainingConfig &config, long step, double epochs)
{
    const double rate = LearningRateSchedule(config.learningRate, config.warmupSteps, config.epochDecay).at(step, epochs);
    if (config.schedule == WarmupSchedule::Constant || step + 1 <= config.warmupSteps)
        return rate;
    return rate * std::sqrt(std::max(1.0, double(config.warmupSteps)) / double(step + 1));
}
