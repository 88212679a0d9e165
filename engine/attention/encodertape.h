#pragma once

#include "engine/attention/seq2seqweights.h"
#include "engine/core/torchapi.h"

#include <vector>

class EncoderImpl;

// The encoder's forward pass over points that all read one sentence (no padding), recorded by hand
// so that its vector-Jacobian product can be applied to many cotangents in one pass: integrated
// gradients needs one per output step, and a backward pass per step through autograd's graph of
// small per-step multiplies costs more than one pass with that many times the rows. GRU cells in
// eval mode (supports()); the cell's arithmetic is the training step's (engine/fast/grustep).
class EncoderTape
{
public:
    static bool supports(const EncoderImpl &encoder);

    // `embedded` (P, S, E): the points' source embeddings. Runs the recurrent layers without
    // gradients and keeps what backward() reads.
    EncoderTape(EncoderImpl &encoder, const torch::Tensor &embedded);

    // (P, S, H): the top layer's outputs, both directions side by side, as EncoderOutput::outputs.
    const torch::Tensor &outputs() const { return m_outputs; }
    // (layers × directions, P, H / directions): each layer's and direction's final state, as
    // torch::nn::GRU's h_n; the bridge reads them (EncoderImpl::bridged).
    const torch::Tensor &finals() const { return m_finals; }

    // For K cotangents of the outputs (K, P, S, H) and of the final states (K, layers × directions,
    // P, H / directions), the gradients they give the embeddings: (K, P, S, E); with `pointWeights`
    // (R, P), their R sums weighted over the points instead, (K, R, S, E).
    torch::Tensor backward(const torch::Tensor &dOutputs, const torch::Tensor &dFinals,
                           const torch::Tensor &pointWeights = {}) const;

private:
    // One layer and direction's pass, in the order it read the positions (the backward direction
    // from the last): the state before each step and after the last (S + 1, P, h), and per step
    // the gates r | z | n and W_hh h + b_hh (S, P, 3h), all gruCellBackward reads.
    struct Pass {
        torch::Tensor hidden, gates, hiddenGates;
    };

    std::vector<RecurrentLayerWeights> m_weights;  // detached, contiguous; layer-major, direction-minor
    std::vector<Pass> m_passes;                    // the same order
    int m_layers = 0, m_directions = 0;
    int64_t m_points = 0, m_width = 0, m_hidden = 0, m_embed = 0;  // m_hidden per direction
    torch::Tensor m_outputs, m_finals;
};
