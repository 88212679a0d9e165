#pragma once

#include "engine/charlm/charlmconfig.h"
#include "engine/fast/recurrentsweep.h"

#include <cstdint>
#include <vector>

// The shapes of a character model's parameters in the order torch's modules list them: the
// embedding (alphabet x embed; none when one-hot), each layer's W_ih, W_hh, b_ih and b_hh, then
// the output layer's weight (alphabet x hidden) and bias; each row-major, as in CharWeights.
std::vector<std::vector<int64_t>> charParameterShapes(const CharModelConfig &config, int alphabetSize);

// Where each parameter lies in one flat run of floats laid out in charParameterShapes' order:
// the parameters themselves (Float = const float) or their gradients (Float = float).
template <typename Float>
struct CharParameterView {
    struct Layer {
        Float *inputWeights, *hiddenWeights, *inputBias, *hiddenBias;
    };
    Float *embedding = nullptr;  // null when one-hot
    std::vector<Layer> layers;
    Float *outputWeights = nullptr, *outputBias = nullptr;

    CharParameterView(Float *flat, const CharModelConfig &config, int alphabetSize);
};

// One window of `rows` streams read side by side, time-major: row b's input and target at step t
// are at [t * rows + b]. Row b reads rowSteps[b] characters; the rows are in nonincreasing order
// of steps (a stream that has ended stays ended), and past a row's steps nothing is read.
struct CharWindow {
    int rows = 0;
    int steps = 0;  // the longest row's
    std::vector<int> rowSteps;
    std::vector<int32_t> inputs, targets;
};

// A character model's network run over windows of parallel streams, each row carrying its state
// from one window to the next: characters (embedding rows or one-hot) -> recurrent layers -> the
// next character's logits, with the cross-entropy. Written by hand rather than as autograd ops:
// the input projections of all steps in one multiply (the first layer's from a per-character
// table), the layers through RecurrentSweep; backward takes each weight's gradient once per window
// as one multiply over all steps. Single-threaded; its buffers are allocated once.
class RecurrentStack
{
public:
    RecurrentStack(const CharModelConfig &config, int alphabetSize, int rows, int maxSteps);

    // Every row's state to zero, as at the start of a text.
    void resetState();
    // Reads `window` on from the state each row carries, which becomes the state after the row's
    // last step; returns the cross-entropy summed over the window's targets, in nats. With
    // `forBackward`, leaves the probabilities backward starts from (the cells' gates are kept
    // either way).
    double forward(const CharParameterView<const float> &parameters, const CharWindow &window, bool forBackward);
    // The gradients of `lossScale` times the summed cross-entropy of the window the last forward
    // read (and is given again), not carried back into the state that window started from:
    // written to `gradients`, not added.
    void backward(const CharParameterView<const float> &parameters, const CharWindow &window, float lossScale,
                  const CharParameterView<float> &gradients);

private:
    void countActiveRows(const CharWindow &window);
    void projectInputs(const CharParameterView<const float> &parameters, const CharWindow &window, int layer);
    // Layer `layer`'s weights and inputs as the sweep reads them.
    RecurrentSweep::Weights sweepWeights(const CharParameterView<const float> &parameters, int layer) const;
    RecurrentSweep::Inputs sweepInputs(const CharWindow &window, int layer);

    CharModelConfig m_config;
    int m_alphabet, m_rows, m_maxSteps, m_inputSize, m_gateWidth;
    RecurrentSweep m_sweep;
    std::vector<std::vector<float>> m_stateHidden, m_stateCell;  // per layer, rows x hidden
    std::vector<RecurrentActivations> m_layers;
    std::vector<int> m_active;                  // per step, the rows still reading
    std::vector<float> m_inputGates;            // steps x rows x gates: W_ih x + biases (GRU: no biases)
    std::vector<float> m_inputTable;            // alphabet x gates: the first layer's m_inputGates per character
    std::vector<float> m_bias;                  // gates
    std::vector<float> m_logits;                // steps x rows x alphabet; probabilities, then their gradients
    std::vector<float> m_dHidden;               // steps x rows x hidden: the gradient of a layer's outputs
    std::vector<float> m_dInputGates, m_dHiddenGates;  // steps x rows x gates (the second for the GRU)
    std::vector<float> m_dInputTable;           // alphabet x gates: the first layer's gate gradients per character
};
