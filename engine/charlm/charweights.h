#pragma once

#include "engine/charlm/charlmconfig.h"

#include <cstdint>
#include <string>
#include <vector>

// One recurrent layer's weights in LibTorch's layout (torch::nn::RNN / GRU / LSTM), row-major:
// gateCount(cell) blocks of `hidden` rows, in torch's order (GRU r|z|n, LSTM i|f|g|o).
struct CharLayerWeights {
    std::vector<float> inputWeights;   // (gates * hidden) x inputSize: W_ih
    std::vector<float> hiddenWeights;  // (gates * hidden) x hidden:    W_hh
    std::vector<float> inputBias;      // gates * hidden: b_ih
    std::vector<float> hiddenBias;     // gates * hidden: b_hh
};

// A character language model as plain floats: what crosses from the trainer to sampling, the
// views, checkpoints and the command line. The cells compute, as torch does:
//   rnn:  h' = tanh(W_ih x + b_ih + W_hh h + b_hh)
//   gru:  r = s(..r), z = s(..z), n = tanh(W_in x + b_in + r * (W_hn h + b_hn)), h' = (1 - z) n + z h
//   lstm: i, f, o = s(..), g = tanh(..), c' = f c + i g, h' = o tanh(c')
// x is the character's embedding row (or its one-hot vector when config.embed is 0) for the first
// layer and the layer below's h' for the others; logits = outputWeights h'(top) + outputBias.
struct CharWeights {
    CharModelConfig config;
    std::u32string alphabet;             // the characters, sorted by code point
    std::vector<float> embedding;        // alphabet x embed; empty when one-hot
    std::vector<CharLayerWeights> layers;
    std::vector<float> outputWeights;    // alphabet x hidden
    std::vector<float> outputBias;       // alphabet

    int alphabetSize() const { return int(alphabet.size()); }
    int inputSize(int layer) const;      // embed (or the alphabet when one-hot), then hidden
    int64_t parameterCount() const;
    // Empty when every size agrees with config and alphabet; otherwise what does not.
    std::string checkSizes() const;
};
