#pragma once

#include "bahdanauattention.h"
#include "modelconfig.h"
#include "torchapi.h"

#include <vector>

// What the decoder needs from the encoder, computed once per batch.
struct DecoderMemory {
    torch::Tensor values;    // encoder outputs (B, S, H)
    torch::Tensor keys;      // W_h . values (B, S, H)
    torch::Tensor mask;      // (B, S) bool
    torch::Tensor maskBias;  // (B, S) float: 0 on real tokens, -inf on padding (added to the scores)
};

struct DecoderStep {
    torch::Tensor logits;   // (B, V)
    torch::Tensor hidden;   // (layers, B, H)
    torch::Tensor weights;  // (B, S) attention
};

// The decoder's weights regrouped for a step loop, once per batch (gradients flow back through
// the slices). The attention query W_s and the top GRU layer's W_hh both read the previous top
// state, so they are one multiply; the embedding's share of the first GRU layer can be computed
// for many tokens at once. Matrices are stored (in, out), the orientation addmm wants: without
// gradients they are contiguous copies, which make one-sentence multiplies ~5x faster.
struct DecoderWeights {
    torch::Tensor top;               // [W_s; W_hh(top)]^T (H, A + 3H)
    torch::Tensor topBias;           // [0; b_hh(top)]
    torch::Tensor embeddingToGates;  // W_ih(layer 0) rows that read the embedding, (E, 3H)
    torch::Tensor contextToGates;    // W_ih(layer 0) rows that read the context, (H, 3H)
    torch::Tensor output;            // out.weight^T (2H + E, V)
    std::vector<torch::Tensor> input, inputBias, hidden, hiddenBias;  // per layer, (in, 3H)
};

// What one step produced besides the new state.
struct DecoderStepOutput {
    torch::Tensor output;   // top layer's new state (B, H)
    torch::Tensor context;  // (B, H)
    torch::Tensor weights;  // (B, S)
};

// One step: attend with the previous top-layer state, run the GRU on [embedding; context], and
// predict from [GRU output; context; embedding]. The GRU is torch::nn::GRU's parameters driven by
// a hand-written step (gruStep), which costs far less per step than the module.
class DecoderImpl : public torch::nn::Module
{
public:
    DecoderImpl(int vocabularySize, const ModelConfig &config);
    DecoderStep forward(const torch::Tensor &token, const torch::Tensor &hidden, const DecoderMemory &memory);

    // Regrouped views for training; without gradients, contiguous copies cached until a
    // parameter changes.
    DecoderWeights fusedWeights();
    // W_ih(layer 0) . embedding + b_ih(layer 0): the embedding's share of the first layer's gates.
    torch::Tensor embeddingGates(const DecoderWeights &w, const torch::Tensor &embedded) const;
    // Advances `state` (one (B, H) tensor per layer) by one step.
    DecoderStepOutput step(const DecoderWeights &w, const torch::Tensor &embeddingGates, std::vector<torch::Tensor> &state,
                           const DecoderMemory &memory);
    // Logits from [output; context; embedded]; any leading dimensions.
    torch::Tensor logits(const DecoderWeights &w, const torch::Tensor &output, const torch::Tensor &context,
                         const torch::Tensor &embedded) const;

    torch::nn::Embedding embedding{nullptr};
    torch::nn::Dropout dropout{nullptr};
    BahdanauAttention attention{nullptr};
    torch::nn::GRU gru{nullptr};
    torch::nn::Linear out{nullptr};

private:
    DecoderWeights regroup(bool contiguous) const;

    DecoderWeights m_cachedWeights;
    std::vector<std::pair<const void *, int64_t>> m_cachedVersions;  // data and version of each parameter
    int m_layers;
    int m_embedSize;
    int m_hiddenSize;
    double m_dropout;
};
TORCH_MODULE(Decoder);
