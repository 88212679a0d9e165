#pragma once

#include "engine/attention/modelconfig.h"
#include "engine/attention/recurrentlayers.h"
#include "engine/core/dropoutstream.h"
#include "engine/core/torchapi.h"

#include <vector>

struct EncoderOutput {
    torch::Tensor outputs;  // (B, S, H); exactly 0 at padded positions
    torch::Tensor hidden;   // (layers, B, H): the decoder's initial state
    torch::Tensor cells;    // (layers, B, H): the decoder's initial LSTM cell state; LSTM only
};

// Embedding -> bidirectional recurrent layers over each sentence's real tokens (padding never
// reaches a hidden state) -> a tanh bridge from the final states (both directions concatenated)
// to the decoder's initial state; an LSTM's final cell states pass to the decoder as they are.
// The cell is torch::nn::GRU's (RNN's, LSTM's) parameters run by hand (encoderRecurrence, through
// the shared RecurrentSweep): one autograd node for all layers and directions.
class EncoderImpl : public torch::nn::Module
{
public:
    EncoderImpl(int vocabularySize, const ModelConfig &config);
    EncoderOutput forward(const torch::Tensor &source, const torch::Tensor &lengths);
    // From the source's embeddings (B, S, E) instead of its ids: attribution reads their gradients.
    EncoderOutput forwardEmbedded(const torch::Tensor &embedded, const torch::Tensor &lengths);

    // The decoder's start from each layer's and direction's final state (layer-major,
    // direction-minor, each (B, H / directions)) and, for an LSTM, final cell state.
    EncoderOutput bridged(const torch::Tensor &outputs, const std::vector<torch::Tensor> &finals,
                          const std::vector<torch::Tensor> &finalCells);

    int layers() const { return m_layers; }
    int directions() const { return m_directions; }
    RecurrentCell cell() const { return m_cell; }
    // The dropout between recurrent layers while training (none with one layer).
    double layerDropout() const { return m_dropout; }

    torch::nn::Embedding embedding{nullptr};
    StreamDropout dropout{nullptr};
    RecurrentLayers recurrent;
    torch::nn::Linear bridge{nullptr};

private:
    RecurrentCell m_cell;
    int m_layers;
    int m_directions;
    double m_dropout;  // between layers, as torch's modules apply it
};
TORCH_MODULE(Encoder);
