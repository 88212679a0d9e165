#pragma once

#include "modelconfig.h"
#include "torchapi.h"

struct EncoderOutput {
    torch::Tensor outputs;  // (B, S, H); exactly 0 at padded positions
    torch::Tensor hidden;   // (layers, B, H): the decoder's initial state
};

// Embedding -> GRU over packed sequences (padding never reaches a hidden state) -> a tanh bridge
// from the final states (both directions concatenated) to the decoder's initial state.
class EncoderImpl : public torch::nn::Module
{
public:
    EncoderImpl(int vocabularySize, const ModelConfig &config);
    EncoderOutput forward(const torch::Tensor &source, const torch::Tensor &lengths);

    torch::nn::Embedding embedding{nullptr};
    torch::nn::Dropout dropout{nullptr};
    torch::nn::GRU gru{nullptr};
    torch::nn::Linear bridge{nullptr};

private:
    int m_layers;
    int m_directions;
};
TORCH_MODULE(Encoder);
