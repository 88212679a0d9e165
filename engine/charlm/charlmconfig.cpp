#include "engine/charlm/charlmconfig.h"

#include "engine/core/trainingfields.h"

const std::vector<ConfigField<CharModelConfig>> &charModelFields()
{
    using C = CharModelConfig;
    static const std::vector<ConfigField<C>> fields = {
        choiceField<&C::cell>("cell", "cell", cellNames(),
                              "The recurrent cell: a plain tanh RNN (h = tanh(W x + U h + b)), a GRU or an LSTM, "
                              "whose gates let the state keep what it needs for longer."),
        integerField<&C::hidden>("hidden", "hidden size", 2, 2048,
                                 "Units in each recurrent layer's state: the model's memory of the text so far."),
        integerField<&C::layers>("layers", "layers", 1, 4,
                                 "Recurrent layers stacked, each reading the states of the one below."),
        integerField<&C::embed>("embed", "embedding size", 0, 1024,
                                "Length of the learned vector each character is read as; 0 reads one-hot "
                                "vectors instead.",
                                "one-hot"),
    };
    return fields;
}

const std::vector<ConfigField<CharTrainingConfig>> &charTrainingFields()
{
    using C = CharTrainingConfig;
    static const std::vector<ConfigField<C>> fields = {
        integerField<&C::seqLen>("seq-len", "sequence length", 2, 1024,
                                 "Characters per window of truncated backpropagation: the state is carried "
                                 "across windows, gradients only within one."),
        integerField<&C::batch>("batch", "batch", 1, 512,
                                "Parallel streams the text is cut into; a short text gets fewer, so that each "
                                "stream is at least one window long."),
        flagField<&C::wholeText>("whole-text", "whole text as one sequence",
                                 "Each epoch reads the whole training text as one sequence from a zero state and "
                                 "backpropagates through all of it (full backpropagation through time, as the "
                                 "course's exercise trains on one line); sequence length and batch are then unused. "
                                 "For texts up to 10,000 characters."),
        realField<&C::lr>("lr", "learning rate", 1e-6, 1, 5e-4, "The optimiser's step size."),
        choiceField<&C::optimizer>("optimizer", "optimiser", {"adam", "adagrad", "sgd"},
                                   "Adam (the reference script's), Adagrad (the classic minimal char-RNN's) or plain "
                                   "stochastic gradient descent (the course's exercise's)."),
        realField<&C::momentum>("momentum", "momentum", 0, 0.99, 0.05,
                                "SGD's momentum: each step adds this share of the last one (0: plain SGD). The "
                                "other optimisers ignore it.",
                                "none"),
        epochsField<&C::epochs>("Passes over the training text."),
        realField<&C::clip>("clip", "gradient clipping", 0, 1000, 0.5,
                            "The largest global norm of the gradient; larger ones are scaled down to it, so "
                            "that one exploding window cannot wreck the weights.",
                            "off"),
        realField<&C::val>("val", "validation share", 0, 0.5, 0.01,
                           "The share of the text held out at its end to measure how well the model does on "
                           "text it has not trained on; a text too short to spare it has none.",
                           "none"),
        seedField<&C::seed>("Seeds the initial weights and the sampling: one thread, the same seed and settings "
                            "train the same model."),
        threadsField<&C::threads>("Training threads, each on its own share of the streams."),
    };
    return fields;
}

std::string validate(const CharModelConfig &config)
{
    return checkFields(config, charModelFields());
}

std::string validate(const CharTrainingConfig &config)
{
    return checkFields(config, charTrainingFields());
}
