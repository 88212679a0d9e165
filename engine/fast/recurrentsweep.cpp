#include "engine/fast/recurrentsweep.h"

#include "engine/fast/grustep.h"
#include "engine/fast/lstmcell.h"
#include "engine/fast/matrixproduct.h"
#include "engine/fast/rnncell.h"
#include "engine/fast/vectorsum.h"

#include <algorithm>
#include <cstring>

namespace {

// to (columns x rows) = from (rows x columns) transposed, in tiles that stay in cache, each
// written a row of `to` at a time.
void transpose(const float *from, int64_t rows, int64_t columns, float *to)
{
    constexpr int64_t kTile = 16;
    for (int64_t c0 = 0; c0 < columns; c0 += kTile)
        for (int64_t r0 = 0; r0 < rows; r0 += kTile)
            for (int64_t c = c0; c < std::min(columns, c0 + kTile); ++c)
                for (int64_t r = r0; r < std::min(rows, r0 + kTile); ++r)
                    to[c * rows + r] = from[r * columns + c];
}

}

void RecurrentActivations::allocate(RecurrentCell kind, int64_t rows, int64_t maxSteps, int64_t hiddenSize)
{
    const std::size_t h = std::size_t(hiddenSize), r = std::size_t(rows), t = std::size_t(maxSteps);
    const std::size_t g = std::size_t(gateCount(kind)) * h;
    hidden.resize((t + 1) * r * h);
    if (kind == RecurrentCell::Lstm)
        cell.resize((t + 1) * r * h);
    if (kind == RecurrentCell::Gru)
        hiddenN.resize(t * r * h);
    if (kind != RecurrentCell::Rnn)
        gates.resize(t * r * g);
}

RecurrentSweep::RecurrentSweep(RecurrentCell kind, int hiddenSize, int rows)
    : m_kind(kind)
    , m_hidden(hiddenSize)
    , m_rows(rows)
    , m_gateWidth(gateCount(kind) * hiddenSize)
{
    const std::size_t h = std::size_t(hiddenSize), r = std::size_t(rows), g = std::size_t(m_gateWidth);
    m_hiddenWeightsTransposed.resize(h * g);
    if (kind == RecurrentCell::Gru)
        m_hiddenGates.resize(r * g);
    m_dRecurrent.resize(r * h);
    if (kind == RecurrentCell::Lstm)
        m_dCell.resize(r * h);
}

void RecurrentSweep::forward(const Weights &w, const Inputs &in, const std::vector<int> &active, int steps,
                             RecurrentActivations &a)
{
    const std::size_t h = std::size_t(m_hidden), g = std::size_t(m_gateWidth), rows = std::size_t(m_rows);
    // The per-step product h W_hh^T reads W_hh^T laid out as it is multiplied: a few rows run
    // through a stored matrix faster than through one transposed as it goes.
    const float *weights = m_hiddenWeightsTransposed.data();
    transpose(w.hiddenWeights, int64_t(g), int64_t(h), m_hiddenWeightsTransposed.data());
    for (int t = 0; t < steps; ++t) {
        const int n = active[std::size_t(t)];
        const float *previous = a.hidden.data() + std::size_t(t) * rows * h;
        float *next = a.hidden.data() + std::size_t(t + 1) * rows * h;
        float *gi = in.gates ? in.gates + std::size_t(t) * rows * g : nullptr;
        float *gates = a.gates.empty() ? nullptr : a.gates.data() + std::size_t(t) * rows * g;
        switch (m_kind) {
        case RecurrentCell::Gru: {
            float *gh = m_hiddenGates.data(), *hiddenN = a.hiddenN.data() + std::size_t(t) * rows * h;
            matrixProduct(false, false, n, int(g), int(h), 1.0f, previous, int(h), weights, int(g), 0.0f, gh, int(g));
            for (int b = 0; b < n; ++b) {
                const float *input =
                    in.table ? in.table + std::size_t(in.tableIndex[std::size_t(t) * rows + std::size_t(b)]) * g
                             : gi + std::size_t(b) * g;
                gruCellAddingBiases(input, w.inputBias, gh + b * g, w.hiddenBias, previous + b * h, next + b * h,
                                    gates + b * g, hiddenN + b * h, int64_t(h));
            }
            break;
        }
        case RecurrentCell::Rnn:
            matrixProduct(false, false, n, int(g), int(h), 1.0f, previous, int(h), weights, int(g), 1.0f, gi, int(g));
            for (int b = 0; b < n; ++b)
                rnnCell(gi + b * g, next + b * h, int64_t(h));
            break;
        case RecurrentCell::Lstm: {
            matrixProduct(false, false, n, int(g), int(h), 1.0f, previous, int(h), weights, int(g), 1.0f, gi, int(g));
            float *cell = a.cell.data() + std::size_t(t + 1) * rows * h;
            std::memcpy(cell, a.cell.data() + std::size_t(t) * rows * h, std::size_t(n) * h * sizeof(float));
            for (int b = 0; b < n; ++b)
                lstmCell(gi + b * g, next + b * h, cell + b * h, gates ? gates + b * g : nullptr, int64_t(h));
            std::fill(cell + std::size_t(n) * h, cell + rows * h, 0.0f);
            break;
        }
        }
        // Rows that have ended get a zero state, so that the multiplies over all steps read finite numbers there.
        std::fill(next + std::size_t(n) * h, next + rows * h, 0.0f);
    }
}

// The sums of the gate gradients over rows (the biases' gradients, and with a table its rows')
// take each step's as they are made: the GRU's cell adds them itself, the others' are added while
// still in cache.
void RecurrentSweep::backward(const Weights &w, const Inputs &in, const std::vector<int> &active, int steps,
                              const RecurrentActivations &a, float *dHidden, const Gradients &d)
{
    const std::size_t h = std::size_t(m_hidden), g = std::size_t(m_gateWidth), rows = std::size_t(m_rows);
    const bool gru = m_kind == RecurrentCell::Gru;
    std::fill(m_dRecurrent.begin(), m_dRecurrent.end(), 0.0f);
    std::fill(m_dCell.begin(), m_dCell.end(), 0.0f);
    std::fill(d.dHiddenBias, d.dHiddenBias + g, 0.0f);
    std::fill(d.dInputBias, d.dInputBias + g, 0.0f);
    if (in.table)
        std::fill(d.dTable, d.dTable + std::size_t(in.tableRows) * g, 0.0f);
    float *dRecurrent = m_dRecurrent.data();
    for (int t = steps - 1; t >= 0; --t) {
        const int n = active[std::size_t(t)], later = t + 1 < steps ? active[std::size_t(t + 1)] : 0;
        float *dNext = dHidden + std::size_t(t) * rows * h;
        // The gradient of this step's output: from above, and from the next step (rows still reading then).
        addInPlace(dNext, dRecurrent, int64_t(later) * int64_t(h));
        const float *previous = a.hidden.data() + std::size_t(t) * rows * h;
        float *dgi = d.dInputGates ? d.dInputGates + std::size_t(t) * rows * g : nullptr;
        const float *gates = a.gates.empty() ? nullptr : a.gates.data() + std::size_t(t) * rows * g;
        const auto tableRow = [&](int b) {
            return d.dTable + std::size_t(in.tableIndex[std::size_t(t) * rows + std::size_t(b)]) * g;
        };
        switch (m_kind) {
        case RecurrentCell::Gru: {
            float *dgh = d.dHiddenGates + std::size_t(t) * rows * g;
            const float *hiddenN = a.hiddenN.data() + std::size_t(t) * rows * h;
            const bool perRow = !in.table;  // a table's input gates need no gradients of their own
            for (int b = 0; b < n; ++b)
                gruCellBackwardSumming(gates + b * g, hiddenN + b * h, previous + b * h, dNext + b * h,
                                       perRow ? dgi + b * g : nullptr, perRow ? d.dInputBias : tableRow(b),
                                       dgh + b * g, d.dHiddenBias, dRecurrent + b * h, int64_t(h));
            std::fill(dgh + std::size_t(n) * g, dgh + rows * g, 0.0f);
            if (perRow)
                std::fill(dgi + std::size_t(n) * g, dgi + rows * g, 0.0f);
            if (t > 0)
                matrixProduct(false, false, n, int(h), int(g), 1.0f, dgh, int(g), w.hiddenWeights, int(h), 1.0f,
                              dRecurrent, int(h));
            continue;  // its gradients are summed already
        }
        case RecurrentCell::Rnn: {
            const float *next = a.hidden.data() + std::size_t(t + 1) * rows * h;
            for (int b = 0; b < n; ++b)
                rnnCellBackward(next + b * h, dNext + b * h, dgi + b * g, int64_t(h));
            break;
        }
        case RecurrentCell::Lstm: {
            const float *cell = a.cell.data() + std::size_t(t) * rows * h;
            const float *nextCell = a.cell.data() + std::size_t(t + 1) * rows * h;
            if (d.dCells)
                addInPlace(m_dCell.data(), d.dCells + std::size_t(t) * rows * h, int64_t(n) * int64_t(h));
            for (int b = 0; b < n; ++b)
                lstmCellBackward(gates + b * g, cell + b * h, nextCell + b * h, dNext + b * h, m_dCell.data() + b * h,
                                 dgi + b * g, int64_t(h));
            break;
        }
        }
        std::fill(dgi + std::size_t(n) * g, dgi + rows * g, 0.0f);
        if (t > 0)
            matrixProduct(false, false, n, int(h), int(g), 1.0f, dgi, int(g), w.hiddenWeights, int(h), 0.0f, dRecurrent,
                          int(h));
        for (int b = 0; b < n; ++b) {
            addInPlace(d.dHiddenBias, dgi + b * g, int64_t(g));
            if (in.table)
                addInPlace(tableRow(b), dgi + b * g, int64_t(g));
        }
    }
    if (!gru)
        std::copy(d.dHiddenBias, d.dHiddenBias + g, d.dInputBias);
    else if (in.table)
        columnSums(d.dTable, in.tableRows, int64_t(g), d.dInputBias);
}
