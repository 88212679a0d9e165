#include "engine/attention/encoder.h"

#include "engine/attention/encoderrecurrence.h"

EncoderImpl::EncoderImpl(int vocabularySize, const ModelConfig &c)
    : embedding(torch::nn::EmbeddingOptions(vocabularySize, c.embedSize).padding_idx(0))
    , dropout(c.dropout)
    , recurrent(c, c.embedSize, c.bidirectional ? c.hiddenSize / 2 : c.hiddenSize, c.bidirectional)
    , bridge(c.bridge ? torch::nn::Linear(c.hiddenSize, c.hiddenSize) : torch::nn::Linear(nullptr))
    , m_cell(c.cell)
    , m_layers(c.layers)
    , m_directions(c.bidirectional ? 2 : 1)
    , m_dropout(c.layers > 1 ? c.dropout : 0.0)
{
    register_module("embedding", embedding);
    register_module("dropout", dropout);
    recurrent.registerIn(*this);
    if (bridge)
        register_module("bridge", bridge);
}

EncoderOutput EncoderImpl::forward(const torch::Tensor &source, const torch::Tensor &lengths)
{
    return forwardEmbedded(embedding(source), lengths);
}

EncoderOutput EncoderImpl::forwardEmbedded(const torch::Tensor &embedded, const torch::Tensor &lengths)
{
    const EncoderLayersOutput layers = encoderRecurrence(*this, dropout(embedded), lengths);
    return bridged(layers.outputs, layers.finals, layers.finalCells);
}

EncoderOutput EncoderImpl::bridged(const torch::Tensor &outputs, const std::vector<torch::Tensor> &finals,
                                   const std::vector<torch::Tensor> &finalCells)
{
    const int64_t batch = outputs.size(0);
    // (layers * directions) final states -> (layers, B, H), forward | backward.
    const auto byLayer = [&](const std::vector<torch::Tensor> &states) {
        return torch::stack(states).view({m_layers, m_directions, batch, -1}).permute({0, 2, 1, 3}).reshape({m_layers, batch, -1});
    };
    const auto hidden = byLayer(finals);
    EncoderOutput out{outputs, bridge ? torch::tanh(bridge(hidden)) : torch::zeros_like(hidden), {}};
    if (!finalCells.empty())
        out.cells = bridge ? byLayer(finalCells) : torch::zeros_like(hidden);
    return out;
}
