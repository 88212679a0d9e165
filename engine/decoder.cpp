#include "decoder.h"

#include "grustep.h"

#include <limits>

DecoderImpl::DecoderImpl(int vocabularySize, const ModelConfig &c)
    : embedding(torch::nn::EmbeddingOptions(vocabularySize, c.embedSize).padding_idx(0))
    , dropout(c.dropout)
    , attention(c.hiddenSize, c.hiddenSize, c.hiddenSize)
    , gru(torch::nn::GRUOptions(c.embedSize + c.hiddenSize, c.hiddenSize)
              .num_layers(c.layers)
              .dropout(c.layers > 1 ? c.dropout : 0.0)
              .batch_first(true))
    , out(2 * c.hiddenSize + c.embedSize, vocabularySize)
    , m_layers(c.layers)
    , m_embedSize(c.embedSize)
    , m_hiddenSize(c.hiddenSize)
    , m_dropout(c.layers > 1 ? c.dropout : 0.0)
{
    register_module("embedding", embedding);
    register_module("dropout", dropout);
    register_module("attention", attention);
    register_module("gru", gru);
    register_module("out", out);
}

DecoderWeights DecoderImpl::regroup(bool contiguous) const
{
    const auto oriented = [contiguous](const torch::Tensor &t) { return contiguous ? t.t().contiguous() : t.t(); };
    DecoderWeights w;
    const auto params = gru->named_parameters(/*recurse=*/false);
    for (int layer = 0; layer < m_layers; ++layer) {
        const std::string suffix = "_l" + std::to_string(layer);
        w.input.push_back(oriented(params["weight_ih" + suffix]));
        w.inputBias.push_back(params["bias_ih" + suffix]);
        w.hidden.push_back(oriented(params["weight_hh" + suffix]));
        w.hiddenBias.push_back(params["bias_hh" + suffix]);
    }
    const torch::Tensor &ws = attention->W_s->weight;
    w.top = oriented(torch::cat({ws, params["weight_hh_l" + std::to_string(m_layers - 1)]}));
    w.topBias = torch::cat({torch::zeros({ws.size(0)}, ws.options()), w.hiddenBias.back()});
    const torch::Tensor &inputWeight = params["weight_ih_l0"];
    w.embeddingToGates = oriented(inputWeight.narrow(1, 0, m_embedSize));
    w.contextToGates = oriented(inputWeight.narrow(1, m_embedSize, m_hiddenSize));
    w.output = oriented(out->weight);
    return w;
}

DecoderWeights DecoderImpl::fusedWeights()
{
    if (torch::GradMode::is_enabled())
        return regroup(/*contiguous=*/false);
    std::vector<std::pair<const void *, int64_t>> versions;
    for (const auto &p : parameters())
        versions.emplace_back(p.data_ptr(), p._version());
    if (versions != m_cachedVersions) {
        m_cachedWeights = regroup(/*contiguous=*/true);
        m_cachedVersions = std::move(versions);
    }
    return m_cachedWeights;
}

torch::Tensor DecoderImpl::embeddingGates(const DecoderWeights &w, const torch::Tensor &embedded) const
{
    return torch::matmul(embedded, w.embeddingToGates).add_(w.inputBias.front());
}

DecoderStepOutput DecoderImpl::step(const DecoderWeights &w, const torch::Tensor &embeddingGates,
                                    std::vector<torch::Tensor> &state, const DecoderMemory &memory)
{
    const int64_t attentionSize = attention->W_s->weight.size(0);
    const auto top = torch::addmm(w.topBias, state.back(), w.top);
    const auto query = top.narrow(1, 0, attentionSize);
    const auto topHiddenGates = top.narrow(1, attentionSize, 3 * m_hiddenSize);

    const auto energy = torch::tanh(memory.keys + query.unsqueeze(1));
    const auto scores = torch::nn::functional::linear(energy, attention->v->weight).squeeze(2) + memory.maskBias;
    const auto weights = torch::softmax(scores, 1);
    const auto context = torch::bmm(weights.unsqueeze(1), memory.values).squeeze(1);

    torch::Tensor input;
    for (int layer = 0; layer < m_layers; ++layer) {
        const std::size_t l = std::size_t(layer);
        const auto inputGates = layer == 0 ? torch::addmm(embeddingGates, context, w.contextToGates)
                                           : torch::addmm(w.inputBias[l], input, w.input[l]);
        const auto hiddenGates = layer == m_layers - 1 ? topHiddenGates
                                                       : torch::addmm(w.hiddenBias[l], state[l], w.hidden[l]);
        state[l] = gruStep(inputGates, hiddenGates, state[l]);
        // torch::nn::GRU's dropout between layers (not after the last).
        input = layer + 1 < m_layers ? torch::dropout(state[l], m_dropout, is_training()) : state[l];
    }
    return {state.back(), context, weights};
}

torch::Tensor DecoderImpl::logits(const DecoderWeights &w, const torch::Tensor &output, const torch::Tensor &context,
                                  const torch::Tensor &embedded) const
{
    return torch::matmul(torch::cat({output, context, embedded}, -1), w.output).add_(out->bias);
}

DecoderStep DecoderImpl::forward(const torch::Tensor &token, const torch::Tensor &hidden, const DecoderMemory &memory)
{
    const DecoderWeights w = fusedWeights();
    auto embedded = dropout(embedding(token));  // (B, E)
    DecoderMemory m = memory;
    if (!m.maskBias.defined())
        m.maskBias = torch::zeros(m.mask.sizes(), m.keys.options()).masked_fill(m.mask.logical_not(), -std::numeric_limits<float>::infinity());
    std::vector<torch::Tensor> state = hidden.unbind(0);
    const DecoderStepOutput s = step(w, embeddingGates(w, embedded), state, m);
    return {logits(w, s.output, s.context, embedded), torch::stack(state), s.weights};
}
