#pragma once

#include "engine/core/torchapi.h"

#include <vector>

class DecoderImpl;
class EncoderImpl;
class Seq2SeqNetImpl;

// The network's weights by role: the one place that knows torch's parameter names and which
// columns of a weight read which input. Every tensor is a parameter or a view of one (no copies:
// gradients flow back, in-place changes show), so the fused training steps, InferenceNet's float
// copy and the tests' op-by-op oracles all read the same weights. Resolving it costs a dictionary
// of names and a few views: once per batch or per prepare, never per step.

// One recurrent layer (one direction) as torch::nn::GRU, RNN and LSTM hold it: G = gateCount(cell)
// blocks of H rows, GRU r|z|n, LSTM i|f|g|o.
struct RecurrentLayerWeights {
    torch::Tensor inputWeight;   // W_ih (GH, in)
    torch::Tensor hiddenWeight;  // W_hh (GH, H)
    torch::Tensor inputBias;     // b_ih (GH)
    torch::Tensor hiddenBias;    // b_hh (GH)
};

struct EncoderWeights {
    torch::Tensor embedding;           // (V, E)
    std::vector<RecurrentLayerWeights> layers;  // layer-major, direction-minor
    int directions = 1;
    torch::Tensor bridgeWeight;        // (H, H): both directions' final states -> decoder state
    torch::Tensor bridgeBias;          // (H); both undefined without the bridge

    const RecurrentLayerWeights &layer(int layer, int direction) const;
};

// Which weights are defined depends on the attention variant (see DecoderImpl).
struct DecoderWeights {
    torch::Tensor embedding;           // (V, E)
    std::vector<RecurrentLayerWeights> layers;  // per layer
    // Layer 0's W_ih by the columns' input: [embedding | context (Luong: h̃_{t-1})].
    torch::Tensor embeddingToGates;    // (GH, E)
    torch::Tensor contextToGates;      // (GH, H); none: undefined
    // Bahdanau: e_i = v . tanh(W_s s + W_h h_i); location adds U (F * a_{t-1})_i + b inside the tanh.
    torch::Tensor keysWeight;          // W_h (A, H)
    torch::Tensor queryWeight;         // W_s (A, H)
    torch::Tensor scoreWeight;         // v (1, A)
    torch::Tensor locationFilters;     // F (k, 1, r); location only
    torch::Tensor locationWeight;      // U (A, k); location only
    torch::Tensor locationBias;        // b (A); location only
    // Luong: e_i = s . W_a h_i (general), h̃ = tanh(W_c [c; s]).
    torch::Tensor luongKeysWeight;     // W_a (H, H); luong-general only
    torch::Tensor attentionalWeight;   // W_c (H, 2H)
    // The output layer, and its columns by input: Bahdanau and location [s_t | c_t | x], Luong [h̃_t],
    // none [s_t | x]. stateToLogits reads what the step outputs (s_t, Luong h̃_t).
    torch::Tensor outputWeight;        // (V, in)
    torch::Tensor outputBias;          // (V)
    torch::Tensor stateToLogits;       // (V, H)
    torch::Tensor contextToLogits;     // (V, H); Bahdanau and location only
    torch::Tensor embeddingToLogits;   // (V, E); Bahdanau, location and none
    // The pointer's gate p_gen = sigmoid(w . [output; c_t; x] + b), w by the columns' input.
    torch::Tensor stateToCopy;         // (1, H); with the pointer only
    torch::Tensor contextToCopy;       // (1, H); with the pointer only
    torch::Tensor embeddingToCopy;     // (1, E); with the pointer only
    torch::Tensor copyBias;            // (1); with the pointer only
};

struct Seq2SeqWeights {
    EncoderWeights encoder;
    DecoderWeights decoder;
};

EncoderWeights weightsOf(const EncoderImpl &encoder);
DecoderWeights weightsOf(const DecoderImpl &decoder);
Seq2SeqWeights weightsOf(const Seq2SeqNetImpl &net);
