#pragma once

#include "engine/charlm/charweights.h"

#include <vector>

// A character model run one character at a time with BLAS matrix-vector products (as the
// attention lab's InferenceNet), for sampling and the views: no LibTorch, no autograd. The first
// layer's input products are looked up per character. A step reads every other weight once and
// is bound by how fast the caches deliver them, which sharing the products with the other core
// (HelperThread) did not raise, so it runs on the calling thread alone, BLAS included; that also
// keeps a step short when the other core is busy.
class CharInferenceNet
{
public:
    explicit CharInferenceNet(const CharWeights &weights);  // throws std::invalid_argument on bad sizes

    // Every layer's h (and, for an LSTM, c after all the h): start() is all zeros.
    struct State {
        std::vector<float> values;
    };
    State start() const;

    // Reads character `id` (an alphabet index), moves `state` on and writes the next character's
    // logits (alphabetSize() floats). Throws std::out_of_range for an id outside the alphabet,
    // std::invalid_argument for a state of another shape of model.
    void step(int id, State &state, float *logits) const;
    // Layer `layer`'s h in `state` (hiddenSize() floats): the units' activations.
    const float *hidden(const State &state, int layer) const;

    int alphabetSize() const;
    int hiddenSize() const;
    int layers() const;
    const std::u32string &alphabet() const;
    int idOf(char32_t c) const;  // -1 outside the alphabet
    const CharWeights &weights() const { return m_weights; }

private:
    CharWeights m_weights;
    std::vector<float> m_characterGates;  // alphabet x (gates * hidden): the first layer's W_ih x + b_ih
};
