#include "encoder.h"

#include "grustep.h"
#include "parameterversions.h"

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
    if (!torch::GradMode::is_enabled() && !is_training() && lengths.min().item<int64_t>() == width)
        return forwardUnpadded(source);
    auto packed = rnn::pack_padded_sequence(dropout(embedding(source)), lengths,
                                            /*batch_first=*/true, /*enforce_sorted=*/false);
    auto [packedOut, hidden] = gru->forward_with_packed_input(packed);
    auto outputs = std::get<0>(rnn::pad_packed_sequence(packedOut, /*batch_first=*/true,
                                                        /*padding_value=*/0.0, /*total_length=*/width));
    // hidden: (layers * directions, B, H / directions) -> (layers, B, H), forward | backward.
    hidden = hidden.view({m_layers, m_directions, batch, -1}).permute({0, 2, 1, 3}).reshape({m_layers, batch, -1});
    return {outputs, torch::tanh(bridge(hidden))};
}

EncoderOutput EncoderImpl::forwardUnpadded(const torch::Tensor &source)
{
    const std::vector<torch::Tensor> weights = m_cachedWeights.get(*gru, [&] {
        const auto params = gru->named_parameters(/*recurse=*/false);
        std::vector<torch::Tensor> w;
        for (int layer = 0; layer < m_layers; ++layer)
            for (int direction = 0; direction < m_directions; ++direction) {
                const std::string suffix = "_l" + std::to_string(layer) + (direction ? "_reverse" : "");
                w.push_back(params["weight_ih" + suffix].t().contiguous());
                w.push_back(params["bias_ih" + suffix]);
                w.push_back(params["weight_hh" + suffix].t().contiguous());
                w.push_back(params["bias_hh" + suffix]);
            }
        return w;
    });
    const int64_t batch = source.size(0);
    const int64_t width = source.size(1);
    torch::Tensor input = embedding(source);  // dropout is off in eval mode
    std::vector<torch::Tensor> finals;
    for (int layer = 0; layer < m_layers; ++layer) {
        std::vector<torch::Tensor> directions;
        for (int direction = 0; direction < m_directions; ++direction) {
            const torch::Tensor *w = &weights[std::size_t(4 * (layer * m_directions + direction))];
            const auto inputGates = torch::matmul(input, w[0]).add_(w[1]);  // every position at once
            torch::Tensor h = torch::zeros({batch, w[2].size(0)}, input.options());
            std::vector<torch::Tensor> outputs(static_cast<std::size_t>(width));
            for (int64_t i = 0; i < width; ++i) {
                const int64_t t = direction ? width - 1 - i : i;
                h = gruStep(inputGates.select(1, t), torch::addmm(w[3], h, w[2]), h);
                outputs[std::size_t(t)] = h;
            }
            finals.push_back(h);
            directions.push_back(torch::stack(outputs, 1));
        }
        input = torch::cat(directions, 2);
    }
    // (layers * directions) final states -> (layers, B, H), forward | backward, as forward() does.
    const auto hidden = torch::stack(finals).view({m_layers, m_directions, batch, -1}).permute({0, 2, 1, 3}).reshape({m_layers, batch, -1});
    return {input, torch::tanh(bridge(hidden))};
}
