#pragma once

#include "engine/core/torchapi.h"

#include <vector>

class EncoderImpl;

// What the encoder's recurrent layers give the bridge: the top layer's outputs (B, S, H) with
// both directions side by side and exactly 0 at padded positions, and each layer's and direction's
// final state (layer-major, direction-minor, each (B, H / directions)), and for an LSTM its final
// cell state.
struct EncoderLayersOutput {
    torch::Tensor outputs;
    std::vector<torch::Tensor> finals, finalCells;
};

// The encoder's recurrent layers over a padded batch as one autograd node, each layer and
// direction run by RecurrentSweep (engine/fast), the engine all hand-trained recurrent layers
// share: the input gates of every position in one multiply, per step the recurrent product of the
// rows still reading and the cell; backwards, each weight's gradient once per batch. Rows read
// their own length (the backward direction from their last real token), in the order of their
// lengths, which the node sorts them into and out of. Dropout between layers draws its masks as
// the module would, over (B, S, H), from dropoutFromStream. `embedded` (B, S, E): the source's
// embeddings after their dropout; `lengths` (B): each row's real tokens.
EncoderLayersOutput encoderRecurrence(EncoderImpl &encoder, const torch::Tensor &embedded, const torch::Tensor &lengths);
