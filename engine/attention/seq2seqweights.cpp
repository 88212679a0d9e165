#include "engine/attention/seq2seqweights.h"

#include "engine/attention/seq2seqnet.h"

#include <string>

namespace {

// torch::nn::GRU, RNN and LSTM name their parameters weight_ih_l<layer>[_reverse] and so on:
// these names are also what checkpoints store.
std::vector<RecurrentLayerWeights> recurrentLayers(const torch::nn::Module &recurrent, int count, int directions)
{
    const auto params = recurrent.named_parameters(/*recurse=*/false);
    std::vector<RecurrentLayerWeights> layers;
    for (int layer = 0; layer < count; ++layer)
        for (int direction = 0; direction < directions; ++direction) {
            const std::string suffix = "_l" + std::to_string(layer) + (direction ? "_reverse" : "");
            layers.push_back({params["weight_ih" + suffix], params["weight_hh" + suffix], params["bias_ih" + suffix],
                              params["bias_hh" + suffix]});
        }
    return layers;
}

}

const RecurrentLayerWeights &EncoderWeights::layer(int layer, int direction) const
{
    return layers[std::size_t(layer * directions + direction)];
}

EncoderWeights weightsOf(const EncoderImpl &encoder)
{
    EncoderWeights w;
    w.embedding = encoder.embedding->weight;
    w.layers = recurrentLayers(encoder.recurrent.module(), encoder.layers(), encoder.directions());
    w.directions = encoder.directions();
    if (encoder.bridge) {
        w.bridgeWeight = encoder.bridge->weight;
        w.bridgeBias = encoder.bridge->bias;
    }
    return w;
}

DecoderWeights weightsOf(const DecoderImpl &decoder)
{
    DecoderWeights w;
    w.embedding = decoder.embedding->weight;
    w.layers = recurrentLayers(decoder.recurrent.module(), decoder.layers(), /*directions=*/1);
    const int64_t embed = w.embedding.size(1);
    const int64_t hidden = w.layers.front().hiddenWeight.size(1);
    const torch::Tensor &firstInput = w.layers.front().inputWeight;
    w.embeddingToGates = firstInput.narrow(1, 0, embed);
    if (stepReadsContext(decoder.kind()))
        w.contextToGates = firstInput.narrow(1, embed, hidden);
    if (decoder.attention) {
        w.keysWeight = decoder.attention->W_h->weight;
        w.queryWeight = decoder.attention->W_s->weight;
        w.scoreWeight = decoder.attention->v->weight;
    }
    if (decoder.location) {
        w.keysWeight = decoder.location->W_h->weight;
        w.queryWeight = decoder.location->W_s->weight;
        w.scoreWeight = decoder.location->v->weight;
        w.locationFilters = decoder.location->F->weight;
        w.locationWeight = decoder.location->U->weight;
        w.locationBias = decoder.location->U->bias;
    }
    if (decoder.luong) {
        if (decoder.luong->W_a)
            w.luongKeysWeight = decoder.luong->W_a->weight;
        w.attentionalWeight = decoder.luong->W_c->weight;
    }
    w.outputWeight = decoder.out->weight;
    w.outputBias = decoder.out->bias;
    w.stateToLogits = w.outputWeight.narrow(1, 0, hidden);
    switch (decoder.kind()) {
    case AttentionKind::Bahdanau:
    case AttentionKind::Location:
        w.contextToLogits = w.outputWeight.narrow(1, hidden, hidden);
        w.embeddingToLogits = w.outputWeight.narrow(1, 2 * hidden, embed);
        break;
    case AttentionKind::LuongDot:
    case AttentionKind::LuongGeneral:
    case AttentionKind::ScaledDot: break;
    case AttentionKind::None: w.embeddingToLogits = w.outputWeight.narrow(1, hidden, embed); break;
    case AttentionKind::BahdanauAfter: w.contextToLogits = w.outputWeight.narrow(1, hidden, hidden); break;
    }
    if (decoder.hasPointer()) {
        const torch::Tensor &gate = decoder.copyGate->weight;
        w.stateToCopy = gate.narrow(1, 0, hidden);
        w.contextToCopy = gate.narrow(1, hidden, hidden);
        w.embeddingToCopy = gate.narrow(1, 2 * hidden, embed);
        w.copyBias = decoder.copyGate->bias;
    }
    return w;
}

Seq2SeqWeights weightsOf(const Seq2SeqNetImpl &net)
{
    return {weightsOf(*net.encoder), weightsOf(*net.decoder)};
}
