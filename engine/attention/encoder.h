#pragma once

#include "engine/attention/modelconfig.h"
#include "engine/core/dropoutstream.h"
#include "engine/core/parameterversions.h"
#include "engine/core/torchapi.h"

#include <vector>

struct EncoderOutput {
    torch::Tensor outputs;  // (B, S, H); exactly 0 at padded positions
    torch::Tensor hidden;   // (layers, B, H): the decoder's initial state
};

// Embedding -> bidirectional GRU over each sentence's real tokens (padding never reaches a hidden
// state) -> a tanh bridge from the final states (both directions concatenated) to the decoder's
// initial state. The GRU is torch::nn::GRU's parameters run by a hand-written loop: each layer's
// input gates for every position in one multiply, gruStep per position, and W_hh's gradient
// once per batch (RecurrentProjection): a quarter less time than the module on packed sequences.
class EncoderImpl : public torch::nn::Module
{
public:
    EncoderImpl(int vocabularySize, const ModelConfig &config);
    EncoderOutput forward(const torch::Tensor &source, const torch::Tensor &lengths);
    // From the source's embeddings (B, S, E) instead of its ids: attribution reads their gradients.
    EncoderOutput forwardEmbedded(const torch::Tensor &embedded, const torch::Tensor &lengths);

    torch::nn::Embedding embedding{nullptr};
    StreamDropout dropout{nullptr};
    torch::nn::GRU gru{nullptr};
    torch::nn::Linear bridge{nullptr};

private:
    // One layer and direction of the GRU, matrices (in, out) as matmul wants them.
    struct StepWeights {
        torch::Tensor inputToGates, inputBias, hiddenToGates, hiddenBias;
    };
    // Layer-major, direction-minor; without gradients, contiguous copies cached until a parameter
    // changes (~20% faster than the module for one sentence).
    std::vector<StepWeights> stepWeights();

    WeightCache<std::vector<StepWeights>> m_cachedWeights;
    int m_layers;
    int m_directions;
    double m_dropout;  // between layers, as torch::nn::GRU applies it
};
TORCH_MODULE(Encoder);
