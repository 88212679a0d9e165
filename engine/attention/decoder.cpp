#include "engine/attention/decoder.h"

#include "engine/attention/seq2seqweights.h"
#include "engine/core/parameterversions.h"
#include "engine/fast/recurrentstep.h"

#include <stdexcept>

namespace {

// What the first recurrent layer reads: the embedding, and for most variants the context.
int recurrentInputSize(const ModelConfig &c)
{
    return stepReadsContext(c.attention) ? c.embedSize + c.hiddenSize : c.embedSize;
}

LuongScore luongScore(AttentionKind kind)
{
    return kind == AttentionKind::LuongGeneral ? LuongScore::General
           : kind == AttentionKind::ScaledDot  ? LuongScore::ScaledDot
                                               : LuongScore::Dot;
}

int outputInputSize(const ModelConfig &c)
{
    switch (c.attention) {
    case AttentionKind::Bahdanau:
    case AttentionKind::Location: return 2 * c.hiddenSize + c.embedSize;
    case AttentionKind::LuongDot:
    case AttentionKind::LuongGeneral:
    case AttentionKind::ScaledDot: return c.hiddenSize;
    case AttentionKind::None: return c.hiddenSize + c.embedSize;
    case AttentionKind::BahdanauAfter: return 2 * c.hiddenSize;
    case AttentionKind::Auto: throw std::logic_error("a decoder is built with an attention variant: resolve auto first");
    }
    return 0;
}

}

DecoderImpl::DecoderImpl(int vocabularySize, const ModelConfig &c)
    : embedding(torch::nn::EmbeddingOptions(vocabularySize, c.embedSize).padding_idx(0))
    , dropout(c.dropout)
    , attention(c.attention == AttentionKind::Bahdanau || c.attention == AttentionKind::BahdanauAfter
                    ? BahdanauAttention(c.hiddenSize, c.hiddenSize, c.hiddenSize)
                    : BahdanauAttention(nullptr))
    , location(c.attention == AttentionKind::Location ? LocationAttention(c.hiddenSize, c.hiddenSize, c.hiddenSize)
                                                      : LocationAttention(nullptr))
    , luong(isMultiplicative(c.attention) ? LuongAttention(c.hiddenSize, luongScore(c.attention))
                                          : LuongAttention(nullptr))
    , recurrent(c, recurrentInputSize(c), c.hiddenSize, /*bidirectional=*/false)
    , out(outputInputSize(c), vocabularySize)
    , copyGate(c.usesPointer() ? torch::nn::Linear(2 * c.hiddenSize + c.embedSize, 1) : torch::nn::Linear(nullptr))
    , m_kind(c.attention)
    , m_cell(c.cell)
    , m_layers(c.layers)
    , m_hiddenSize(c.hiddenSize)
    , m_dropout(c.layers > 1 ? c.dropout : 0.0)
{
    register_module("embedding", embedding);
    register_module("dropout", dropout);
    if (attention)
        register_module("attention", attention);
    if (location)
        register_module("location", location);
    if (luong)
        register_module("luong", luong);
    recurrent.registerIn(*this);
    register_module("out", out);
    if (copyGate)
        register_module("copy_gate", copyGate);
}

torch::Tensor DecoderImpl::keys(const torch::Tensor &encoderOutputs)
{
    if (attention)
        return attention->keys(encoderOutputs);
    if (location)
        return location->keys(encoderOutputs);
    if (luong)
        return luong->keys(encoderOutputs);
    return {};
}

FusedDecoderWeights DecoderImpl::regroup(bool contiguous) const
{
    const auto oriented = [contiguous](const torch::Tensor &t) { return contiguous ? t.t().contiguous() : t.t(); };
    const DecoderWeights p = weightsOf(*this);
    FusedDecoderWeights w;
    for (std::size_t layer = 0; layer < p.layers.size(); ++layer) {
        const RecurrentLayerWeights &g = p.layers[layer];
        w.input.push_back(layer == 0 ? RecurrentProjection() : RecurrentProjection(oriented(g.inputWeight), g.inputBias));
        w.hidden.emplace_back(oriented(g.hiddenWeight), g.hiddenBias);
    }
    if (m_kind == AttentionKind::Bahdanau || m_kind == AttentionKind::Location) {
        const torch::Tensor &ws = p.queryWeight;
        const RecurrentLayerWeights &top = p.layers.back();
        w.top = RecurrentProjection(oriented(torch::cat({ws, top.hiddenWeight})),
                                    torch::cat({torch::zeros({ws.size(0)}, ws.options()), top.hiddenBias}));
    }
    w.embeddingToGates = oriented(p.embeddingToGates);
    w.firstInputBias = p.layers.front().inputBias;
    if (p.contextToGates.defined())
        w.contextToGates = RecurrentProjection(oriented(p.contextToGates), {});
    w.output = oriented(p.outputWeight);
    w.outputBias = p.outputBias;
    return w;
}

FusedDecoderWeights DecoderImpl::fusedWeights()
{
    if (torch::GradMode::is_enabled())
        return regroup(/*contiguous=*/false);
    return m_cachedWeights.get(*this, [&] { return regroup(/*contiguous=*/true); });
}

torch::Tensor DecoderImpl::embeddingGates(const FusedDecoderWeights &w, const torch::Tensor &embedded) const
{
    return torch::matmul(embedded, w.embeddingToGates).add_(w.firstInputBias);
}

void DecoderImpl::advance(const FusedDecoderWeights &w, const torch::Tensor &firstInputGates,
                          const torch::Tensor &topHiddenGates, DecoderState &state)
{
    std::vector<torch::Tensor> &layers = state.layers;
    torch::Tensor input;
    for (int layer = 0; layer < m_layers; ++layer) {
        const std::size_t l = std::size_t(layer);
        const auto inputGates = layer == 0 ? firstInputGates : w.input[l](input);
        const auto hiddenGates = layer == m_layers - 1 && topHiddenGates.defined() ? topHiddenGates : w.hidden[l](layers[l]);
        layers[l] = recurrentStep(m_cell, inputGates, hiddenGates, layers[l], m_cell == RecurrentCell::Lstm ? &state.cells[l] : nullptr);
        // torch's dropout between layers (not after the last).
        input = layer + 1 < m_layers ? dropoutFromStream(layers[l], m_dropout, is_training()) : layers[l];
    }
}

DecoderStepOutput DecoderImpl::additiveStep(const FusedDecoderWeights &w, const torch::Tensor &embeddingGates,
                                            DecoderState &state, const DecoderMemory &memory)
{
    const auto top = w.top(state.layers.back());
    const int64_t gateWidth = gateCount(m_cell) * m_hiddenSize;
    const int64_t attentionSize = top.size(1) - gateWidth;
    const auto query = top.narrow(1, 0, attentionSize);
    const auto topHiddenGates = top.narrow(1, attentionSize, gateWidth);

    torch::Tensor context, weights;
    if (location) {
        const auto previous = state.previousWeights.defined() ? state.previousWeights : torch::zeros_like(memory.maskBias);
        std::tie(context, weights) = location->attend(query, memory.keys, previous, memory.values, memory.maskBias);
        state.previousWeights = weights;
    } else {
        std::tie(context, weights) = attention->attend(query, memory.keys, memory.values, memory.maskBias);
    }

    advance(w, w.contextToGates(context, embeddingGates), topHiddenGates, state);
    return {state.layers.back(), context, weights};
}

DecoderStepOutput DecoderImpl::step(const FusedDecoderWeights &w, const torch::Tensor &embeddingGates, DecoderState &state,
                                    const DecoderMemory &memory)
{
    switch (m_kind) {
    case AttentionKind::Bahdanau:
    case AttentionKind::Location:
        return additiveStep(w, embeddingGates, state, memory);
    case AttentionKind::LuongDot:
    case AttentionKind::LuongGeneral:
    case AttentionKind::ScaledDot: {
        const auto firstGates = state.attentional.defined()
                                    ? w.contextToGates(state.attentional, embeddingGates)
                                    : embeddingGates;
        advance(w, firstGates, {}, state);
        LuongAttentionOutput a = luong(state.layers.back(), memory.keys, memory.values, memory.maskBias);
        state.attentional = a.attentional;
        return {a.attentional, a.context, a.weights};
    }
    case AttentionKind::None:
        advance(w, embeddingGates, {}, state);
        return {state.layers.back(), {}, {}};
    case AttentionKind::BahdanauAfter: {
        advance(w, embeddingGates, {}, state);
        const auto [context, weights] =
            attention->attend(attention->W_s(state.layers.back()), memory.keys, memory.values, memory.maskBias);
        return {state.layers.back(), context, weights};
    }
    }
    return {};
}

torch::Tensor DecoderImpl::logits(const FusedDecoderWeights &w, const torch::Tensor &output, const torch::Tensor &context,
                                  const torch::Tensor &embedded) const
{
    switch (m_kind) {
    case AttentionKind::Bahdanau:
    case AttentionKind::Location:
        return torch::matmul(torch::cat({output, context, embedded}, -1), w.output).add_(w.outputBias);
    case AttentionKind::LuongDot:
    case AttentionKind::LuongGeneral:
    case AttentionKind::ScaledDot:
        return torch::matmul(output, w.output).add_(w.outputBias);
    case AttentionKind::None:
        return torch::matmul(torch::cat({output, embedded}, -1), w.output).add_(w.outputBias);
    case AttentionKind::BahdanauAfter:
        return torch::matmul(torch::cat({output, context}, -1), w.output).add_(w.outputBias);
    }
    return {};
}

torch::Tensor DecoderImpl::copyProbability(const torch::Tensor &output, const torch::Tensor &context,
                                           const torch::Tensor &embedded)
{
    return torch::sigmoid(copyGate(torch::cat({output, context, embedded}, -1))).squeeze(-1);
}
