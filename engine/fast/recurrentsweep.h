#pragma once

#include "engine/core/recurrentcell.h"

#include <cstdint>
#include <vector>

// What one recurrent layer's pass over a window keeps for its backward pass, time-major: row b of
// step t at [t * rows + b].
struct RecurrentActivations {
    std::vector<float> hidden;   // (steps + 1) x rows x hidden: the state it started from, then each step's
    std::vector<float> cell;     // LSTM: the same for the cell state
    std::vector<float> hiddenN;  // GRU: steps x rows x hidden, W_hn h + b_hn
    std::vector<float> gates;    // GRU r|z|n, LSTM i|f|g|o: steps x rows x gates

    void allocate(RecurrentCell kind, int64_t rows, int64_t maxSteps, int64_t hiddenSize);
};

// One recurrent layer in one direction run by hand over a window of rows read side by side: per
// step only the recurrent product for the rows still reading and the cell, row by row. Row b reads
// while t < its steps, and rows come in nonincreasing order of steps, so the rows reading at step t
// are the first active[t]; a row that has ended holds a zero state. The gradients of every step's
// gates are kept, so that the caller takes each weight's gradient as one multiply over all steps.
// Every recurrent stack trained by hand runs its layers through it. Single-threaded; its scratch
// is allocated once.
class RecurrentSweep
{
public:
    RecurrentSweep(RecurrentCell kind, int hiddenSize, int rows);

    // One layer's parameters, row-major as torch's modules hold them: W_hh (gates x hidden), biases (gates).
    struct Weights {
        const float *hiddenWeights, *inputBias, *hiddenBias;
    };
    // Where step t's input gates come from for row b: `gates` + (t * rows + b) * gateWidth, or,
    // with a `table`, its row `tableIndex[t * rows + b]` (a character's, for a table per character).
    // The GRU reads W_ih x without biases (its cell adds both); the RNN and LSTM read
    // W_ih x + b_ih + b_hh from `gates`, which the step's recurrent product is added to in place.
    struct Inputs {
        float *gates = nullptr;
        const float *table = nullptr;
        const int32_t *tableIndex = nullptr;
        int tableRows = 0;
    };

    // Runs `steps` steps from the state in a.hidden's (and a.cell's) first rows.
    void forward(const Weights &w, const Inputs &in, const std::vector<int> &active, int steps, RecurrentActivations &a);

    // Where backward() writes the gradients of the gate pre-activations, time-major like the
    // gates, and the biases'. With a table, `dTable` (tableRows x gates) takes the input gates'
    // gradients summed per table row, and a GRU, which needs no more of them, leaves `dInputGates`
    // alone (it may be null).
    struct Gradients {
        float *dInputGates = nullptr;
        float *dHiddenGates = nullptr;  // GRU: steps x rows x gates
        float *dTable = nullptr;
        float *dInputBias = nullptr, *dHiddenBias = nullptr;
        // LSTM: the gradient each step's cell state gets from outside the layer (steps x rows x
        // hidden), or null for none.
        const float *dCells = nullptr;
    };

    // Back through the steps from `dHidden` (steps x rows x hidden: the gradient of each step's
    // output, to which the gradient from the step after is added in place), not into the state the
    // window started from. Rows that had ended get zero gate gradients. The weights' gradients are
    // the caller's: dW_hh = sum over steps of dHiddenGates^T h_(t-1) (for the RNN and LSTM the
    // input gates' gradients stand for both).
    void backward(const Weights &w, const Inputs &in, const std::vector<int> &active, int steps,
                  const RecurrentActivations &a, float *dHidden, const Gradients &g);

    int gateWidth() const { return m_gateWidth; }

private:
    RecurrentCell m_kind;
    int m_hidden, m_rows, m_gateWidth;
    std::vector<float> m_hiddenWeightsTransposed;  // hidden x gates: W_hh^T, the layer's being read
    std::vector<float> m_hiddenGates;              // GRU: rows x gates, the step's W_hh h
    std::vector<float> m_dRecurrent, m_dCell;      // rows x hidden: what flows back to the step before
};
