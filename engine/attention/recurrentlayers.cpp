#include "engine/attention/recurrentlayers.h"

namespace {

template <typename Options>
Options optionsFor(const ModelConfig &c, int64_t input, int64_t hidden, bool bidirectional)
{
    return Options(input, hidden)
        .num_layers(c.layers)
        .dropout(c.layers > 1 ? c.dropout : 0.0)
        .bidirectional(bidirectional)
        .batch_first(true);
}

}

RecurrentLayers::RecurrentLayers(const ModelConfig &c, int64_t input, int64_t hidden, bool bidirectional)
{
    switch (c.cell) {
    case RecurrentCell::Gru: gru = torch::nn::GRU(optionsFor<torch::nn::GRUOptions>(c, input, hidden, bidirectional)); break;
    case RecurrentCell::Rnn: rnn = torch::nn::RNN(optionsFor<torch::nn::RNNOptions>(c, input, hidden, bidirectional)); break;
    case RecurrentCell::Lstm:
        lstm = torch::nn::LSTM(optionsFor<torch::nn::LSTMOptions>(c, input, hidden, bidirectional));
        break;
    }
}

void RecurrentLayers::registerIn(torch::nn::Module &owner) const
{
    if (gru)
        owner.register_module("gru", gru);
    if (rnn)
        owner.register_module("rnn", rnn);
    if (lstm)
        owner.register_module("lstm", lstm);
}

const torch::nn::Module &RecurrentLayers::module() const
{
    if (gru)
        return *gru;
    if (rnn)
        return *rnn;
    return *lstm;
}
