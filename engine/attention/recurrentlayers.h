#pragma once

#include "engine/attention/modelconfig.h"
#include "engine/core/torchapi.h"

// The encoder's or the decoder's recurrent layers: one of torch::nn::GRU, RNN and LSTM, the other
// two null. The hand-written loops run its parameters, and checkpoints store them under its names.
struct RecurrentLayers {
    torch::nn::GRU gru{nullptr};
    torch::nn::RNN rnn{nullptr};
    torch::nn::LSTM lstm{nullptr};

    // `config`'s cell and layers (dropout between them as the config sets it), reading `input`
    // values per position into `hidden`-wide states.
    RecurrentLayers(const ModelConfig &config, int64_t input, int64_t hidden, bool bidirectional);
    // Registers the module in `owner` under its cell's name: "gru", "rnn" or "lstm".
    void registerIn(torch::nn::Module &owner) const;
    const torch::nn::Module &module() const;
};
