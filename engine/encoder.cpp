#include "encoder.h"

namespace rnn = torch::nn::utils::rnn;

EncoderImpl::EncoderImpl(int vocabularySize, const ModelConfig &c)
    : embedding(torch::nn::EmbeddingOptions(vocabularySize, c.embedSize).padding_idx(0))
    , dropout(c.dropout)
    , gru(torch::nn::GRUOptions(c.embedSize, c.bidirectional ? c.hiddenSize / 2 : c.hiddenSize)
              .num_layers(c.layers)
              .dropout(c.layers > 1 ? c.dropout : 0.0)
              .bidirectional(c.bidirectional)
              .batch_first(true))
    , bridge(c.hiddenSize, c.hiddenSize)
    , m_layers(c.layers)
    , m_directions(c.bidirectional ? 2 : 1)
{
    register_module("embedding", embedding);
    register_module("dropout", dropout);
    register_module("gru", gru);
    register_module("bridge", bridge);
}

EncoderOutput EncoderImpl::forward(const torch::Tensor &source, const torch::Tensor &lengths)
{
    const int64_t batch = source.size(0);
    const int64_t width = source.size(1);
    auto packed = rnn::pack_padded_sequence(dropout(embedding(source)), lengths,
                                            /*batch_first=*/true, /*enforce_sorted=*/false);
    auto [packedOut, hidden] = gru->forward_with_packed_input(packed);
    auto outputs = std::get<0>(rnn::pad_packed_sequence(packedOut, /*batch_first=*/true,
                                                        /*padding_value=*/0.0, /*total_length=*/width));
    // hidden: (layers * directions, B, H / directions) -> (layers, B, H), forward | backward.
    hidden = hidden.view({m_layers, m_directions, batch, -1}).permute({0, 2, 1, 3}).reshape({m_layers, batch, -1});
    return {outputs, torch::tanh(bridge(hidden))};
}
