#include "engine/attention/trainingconfig.h"

#include "engine/core/trainingfields.h"

const std::vector<ConfigField<TrainingConfig>> &trainingConfigFields()
{
    using T = TrainingConfig;
    static const std::vector<ConfigField<T>> fields = {
        realField<&T::learningRate>("lr", "learning rate", 1e-6, 10, 1e-4,
                                    "Step size of the Adam optimizer: too high and the loss jumps or diverges, too "
                                    "low and learning crawls."),
        realField<&T::learningRateDecay>("lr-decay", "learning-rate decay", 1e-6, 1, 0.05,
                                         "The learning rate is multiplied by this after an epoch that does not "
                                         "improve the validation loss; 1 keeps it."),
        realField<&T::learningRateEpochDecay>("lr-epoch-decay", "learning-rate decay per epoch", 0, 1, 0.05,
                                              "The learning rate shrinks by this factor over every epoch, a little at "
                                              "each step: big steps while the model is far off, small ones to settle; "
                                              "1 keeps it. Auto: 0.5 for generated sentences, 1 for a corpus file, "
                                              "whose rate then falls only after an epoch that does not help.",
                                              "auto"),
        integerField<&T::warmupSteps>("warmup", "warm-up steps", 0, 100000,
                                      "The learning rate rises from nearly 0 to its full value over this many "
                                      "steps, while Adam's estimates of the gradients are still poor.",
                                      "none"),
        integerField<&T::batchSize>("batch", "batch size", 1, 65536, "Sentences per gradient step."),
        integerField<&T::batchStart>("batch-start", "first epoch's batch size", 0, 65536,
                                     "Sentences per step in the first epoch, doubled every epoch up to the batch "
                                     "size: many small steps while the model is far off, then larger batches, "
                                     "which train faster.",
                                     "the batch size"),
        epochsField<&T::epochs>("Passes over the training sentences, at most: early stopping may end training "
                                "sooner."),
        realField<&T::teacherForcing>("teacher-forcing", "teacher forcing", 0, 1, 0.05,
                                      "Probability that the decoder is fed the correct previous word while training "
                                      "instead of its own guess."),
        realField<&T::clipNorm>("clip", "gradient clipping", 0, 1000, 0.5,
                                "Gradients whose overall length exceeds this are scaled down to it, which keeps "
                                "training stable.",
                                "off"),
        choiceField<&T::optimizer>("optimizer", "optimizer", {"adam", "sgd"},
                                   "The update rule: Adam (adaptive steps per weight) or plain stochastic gradient "
                                   "descent, the course's exercises' rule, which needs a larger learning rate."),
        realField<&T::momentum>("momentum", "momentum (SGD)", 0, 0.99, 0.1,
                                "SGD only: the share of the last step kept in the next; 0 is plain SGD."),
        realField<&T::weightDecay>("weight-decay", "weight decay", 0, 1, 1e-4,
                                   "L2 penalty: this times each weight is added to its gradient."),
        realField<&T::unknownWordRate>("unk-rate", "unknown-word rate", 0, 0.5, 0.01,
                                       "Share of training source words shown as <UNK>, so that the model learns to "
                                       "copy unknown words through attention."),
        integerField<&T::patience>("patience", "early-stop patience", 0, 100000,
                                   "Stop after this many epochs without a better validation loss.", "never"),
        seedField<&T::seed>("Seeds the initial weights and the batch order: the same seed and settings train the "
                            "same model."),
        threadsField<&T::threads>("CPU threads for training; all cores is fastest but slows the rest of the "
                                  "computer."),
    };
    return fields;
}

std::string validate(const TrainingConfig &c)
{
    return checkFields(c, trainingConfigFields());
}

int trainingThreads(const TrainingConfig &config)
{
    return resolvedThreads(config.threads);
}

double effectiveEpochDecay(const TrainingConfig &training, bool corpus)
{
    if (training.learningRateEpochDecay > 0)
        return training.learningRateEpochDecay;
    return corpus ? kCorpusEpochDecay : kGeneratedEpochDecay;
}
