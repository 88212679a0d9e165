#include "engine/attention/encoder.h"

#include "engine/attention/seq2seqweights.h"
#include "engine/core/parameterversions.h"
#include "engine/fast/recurrentstep.h"
#include "engine/fast/recurrentprojection.h"

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

std::vector<EncoderImpl::StepWeights> EncoderImpl::stepWeights()
{
    const auto build = [&](bool contiguous) {
        const auto oriented = [contiguous](const torch::Tensor &t) { return contiguous ? t.t().contiguous() : t.t(); };
        std::vector<StepWeights> w;
        for (const RecurrentLayerWeights &g : weightsOf(*this).layers)
            w.push_back({oriented(g.inputWeight), g.inputBias, oriented(g.hiddenWeight), g.hiddenBias});
        return w;
    };
    if (torch::GradMode::is_enabled())
        return build(/*contiguous=*/false);
    return m_cachedWeights.get(recurrent.module(), [&] { return build(/*contiguous=*/true); });
}

EncoderOutput EncoderImpl::forward(const torch::Tensor &source, const torch::Tensor &lengths)
{
    return forwardEmbedded(embedding(source), lengths);
}

EncoderOutput EncoderImpl::forwardEmbedded(const torch::Tensor &embedded, const torch::Tensor &lengths)
{
    const std::vector<StepWeights> weights = stepWeights();
    const int64_t batch = embedded.size(0);
    const int64_t width = embedded.size(1);
    // Where some sentences are shorter than the batch, a padded position leaves the state as it
    // was (so the forward direction ends on the last real token and the backward one starts from
    // zeros there) and outputs zero. (B, S, 1), 1 on real tokens; undefined without padding.
    torch::Tensor real;
    if (lengths.min().item<int64_t>() < width)
        real = (torch::arange(width).unsqueeze(0) < lengths.unsqueeze(1)).unsqueeze(2).to(torch::kFloat);
    torch::Tensor input = dropout(embedded);
    const bool lstmCells = m_cell == RecurrentCell::Lstm;
    std::vector<torch::Tensor> finals, finalCells;
    for (int layer = 0; layer < m_layers; ++layer) {
        std::vector<torch::Tensor> directions;
        for (int direction = 0; direction < m_directions; ++direction) {
            const StepWeights &w = weights[std::size_t(layer * m_directions + direction)];
            const auto inputGates = torch::matmul(input, w.inputToGates).add_(w.inputBias).unbind(1);  // every position at once
            const RecurrentProjection hiddenGates(w.hiddenToGates, w.hiddenBias);
            torch::Tensor h = torch::zeros({batch, w.hiddenToGates.size(0)}, input.options());
            torch::Tensor c = lstmCells ? torch::zeros_like(h) : torch::Tensor();
            std::vector<torch::Tensor> outputs(static_cast<std::size_t>(width));
            for (int64_t i = 0; i < width; ++i) {
                const int64_t t = direction ? width - 1 - i : i;
                torch::Tensor nextCell = c;
                const auto next = recurrentStep(m_cell, inputGates[std::size_t(t)], hiddenGates(h), h, &nextCell);
                if (real.defined()) {
                    const auto isReal = real.select(1, t);
                    h = torch::lerp(h, next, isReal);
                    if (lstmCells)
                        c = torch::lerp(c, nextCell, isReal);
                    outputs[std::size_t(t)] = h * isReal;
                } else {
                    outputs[std::size_t(t)] = h = next;
                    c = nextCell;
                }
            }
            finals.push_back(h);
            if (lstmCells)
                finalCells.push_back(c);
            directions.push_back(torch::stack(outputs, 1));
        }
        input = torch::cat(directions, 2);
        if (layer + 1 < m_layers)
            input = dropoutFromStream(input, m_dropout, is_training());
    }
    return bridged(input, finals, finalCells);
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
