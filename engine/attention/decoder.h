#pragma once

#include "engine/attention/bahdanauattention.h"
#include "engine/attention/locationattention.h"
#include "engine/attention/luongattention.h"
#include "engine/attention/modelconfig.h"
#include "engine/attention/recurrentlayers.h"
#include "engine/core/dropoutstream.h"
#include "engine/core/parameterversions.h"
#include "engine/core/torchapi.h"
#include "engine/fast/recurrentprojection.h"

#include <vector>

// What the decoder needs from the encoder, computed once per batch.
struct DecoderMemory {
    torch::Tensor values;    // encoder outputs (B, S, H)
    torch::Tensor keys;      // what the scores read: W_h . values (Bahdanau, location), W_a . values or values (Luong); none: undefined
    torch::Tensor mask;      // (B, S) bool
    torch::Tensor maskBias;  // (B, S) float: 0 on real tokens, -inf on padding (added to the scores)
};

// The recurrent state between steps: one (B, H) tensor per layer (and for an LSTM one cell state
// per layer), for Luong attention the previous attentional state h̃_{t-1}, fed back as input, and
// for location attention the previous weights a_{t-1} (B, S). Those two are undefined before the
// first step, where they read as zeros.
struct DecoderState {
    std::vector<torch::Tensor> layers;
    std::vector<torch::Tensor> cells;  // LSTM only
    torch::Tensor attentional;
    torch::Tensor previousWeights;
};

// The decoder's weights (DecoderWeights) regrouped for the fast step loop, once per batch
// (gradients flow back through the slices). The attention query W_s and the top layer's W_hh
// both read the previous top state, so they are one multiply; the embedding's share of the first
// layer can be computed for many tokens at once. Matrices are stored (in, out), the
// orientation addmm wants: without gradients they are contiguous copies, which make one-sentence
// multiplies ~5x faster. Weights that every step multiplies by are RecurrentProjections, whose
// gradients are computed once per batch rather than once per step.
struct FusedDecoderWeights {
    RecurrentProjection top;             // Bahdanau, location: [W_s; W_hh(top)]^T (H, A + GH), bias [0; b_hh(top)]
    torch::Tensor embeddingToGates;      // W_ih(layer 0) rows that read the embedding, (E, GH)
    torch::Tensor firstInputBias;        // b_ih(layer 0)
    RecurrentProjection contextToGates;  // W_ih(layer 0) rows that read the context (Luong: h̃_{t-1}), (H, GH), no bias; none: unset
    torch::Tensor output;                // out.weight^T (2H + E, V); Luong (H, V); none (H + E, V)
    torch::Tensor outputBias;            // out.bias
    std::vector<RecurrentProjection> input, hidden;  // per layer, (in, GH) with b_ih, b_hh; input[0] unset
};

// What one step produced besides the new state.
struct DecoderStepOutput {
    torch::Tensor output;   // what logits() reads: the top layer's new state s_t; Luong: h̃_t (B, H)
    torch::Tensor context;  // (B, H); none: undefined
    torch::Tensor weights;  // (B, S); none: undefined
};

// One step of the decoder, by attention variant (s = top layer's state, x = embedding; "GRU" is
// whichever cell the model has):
//  bahdanau: attend with s_{t-1} (BahdanauAttention), GRU on [x; c_t], predict from [s_t; c_t; x].
//  location: as bahdanau, the score also reading a_{t-1} (LocationAttention). a_0 = 0: before the
//    first word there is no alignment to move from, and zeros leave the first score Bahdanau's (plus
//    U's bias) rather than a prior that it starts at word 0, when reversing starts at the last word.
//  luong-dot, luong-general, scaled-dot: GRU on [x; h̃_{t-1}] (input feeding, h̃_0 = 0), then attend
//    with s_t (LuongAttention) and predict from h̃_t = tanh(W_c [c_t; s_t]) alone, as Luong et al.
//    2015 do.
//  none: GRU on x alone and predict from [s_t; x]; the encoder's final state, the decoder's
//    initial state, is all it learns of the input.
//  bahdanau-after: GRU on x alone, then attend with the new state s_t (Bahdanau's score) and predict
//    from [s_t; c_t], as the course's digits exercise does.
// The cell is torch::nn::GRU's (RNN's, LSTM's) parameters driven by a hand-written step
// (recurrentStep), which costs far less per step than the module.
class DecoderImpl : public torch::nn::Module
{
public:
    DecoderImpl(int vocabularySize, const ModelConfig &config);

    AttentionKind kind() const { return m_kind; }
    RecurrentCell cell() const { return m_cell; }
    int layers() const { return m_layers; }
    // The dropout between recurrent layers while training (none with one layer).
    double layerDropout() const { return m_dropout; }
    // DecoderMemory::keys for these encoder outputs.
    torch::Tensor keys(const torch::Tensor &encoderOutputs);

    // Regrouped views for training; without gradients, contiguous copies cached until a
    // parameter changes.
    FusedDecoderWeights fusedWeights();
    // W_ih(layer 0) . embedding + b_ih(layer 0): the embedding's share of the first layer's gates.
    torch::Tensor embeddingGates(const FusedDecoderWeights &w, const torch::Tensor &embedded) const;
    // Advances `state` by one step.
    DecoderStepOutput step(const FusedDecoderWeights &w, const torch::Tensor &embeddingGates, DecoderState &state,
                           const DecoderMemory &memory);
    // Logits from what the variant predicts from (see above); any leading dimensions.
    torch::Tensor logits(const FusedDecoderWeights &w, const torch::Tensor &output, const torch::Tensor &context,
                         const torch::Tensor &embedded) const;
    // With the pointer: p_gen = sigmoid(w . [output; c_t; x] + b), the share of the distribution the
    // vocabulary softmax gets (the rest copies through the attention); See et al. read the decoder
    // state, the context and the input, and `output` is the state each variant predicts from.
    // Any leading dimensions; the last one is dropped.
    torch::Tensor copyProbability(const torch::Tensor &output, const torch::Tensor &context,
                                  const torch::Tensor &embedded);
    bool hasPointer() const { return !copyGate.is_empty(); }

    torch::nn::Embedding embedding{nullptr};
    StreamDropout dropout{nullptr};
    BahdanauAttention attention{nullptr};  // bahdanau and bahdanau-after only
    LocationAttention location{nullptr};   // location only
    LuongAttention luong{nullptr};         // luong-dot, luong-general and scaled-dot only
    RecurrentLayers recurrent;
    torch::nn::Linear out{nullptr};
    torch::nn::Linear copyGate{nullptr};  // with the pointer only

private:
    FusedDecoderWeights regroup(bool contiguous) const;
    // Bahdanau and location attention.
    DecoderStepOutput additiveStep(const FusedDecoderWeights &w, const torch::Tensor &embeddingGates,
                                   DecoderState &state, const DecoderMemory &memory);
    // Runs the recurrent layers; `topHiddenGates` when the caller has them already, else undefined.
    void advance(const FusedDecoderWeights &w, const torch::Tensor &firstInputGates, const torch::Tensor &topHiddenGates,
                 DecoderState &state);

    WeightCache<FusedDecoderWeights> m_cachedWeights;
    AttentionKind m_kind;
    RecurrentCell m_cell;
    int m_layers;
    int m_hiddenSize;
    double m_dropout;
};
TORCH_MODULE(Decoder);
