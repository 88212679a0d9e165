#include "engine/charlm/recurrentstack.h"

#include "engine/fast/matrixproduct.h"
#include "engine/fast/vectorsum.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace {

void copyRows(float *to, const float *row, int64_t rows, int64_t width)
{
    for (int64_t r = 0; r < rows; ++r)
        std::memcpy(to + r * width, row, size_t(width) * sizeof(float));
}

}

std::vector<std::vector<int64_t>> charParameterShapes(const CharModelConfig &config, int alphabetSize)
{
    const int64_t v = alphabetSize, h = config.hidden, g = gateCount(config.cell) * h;
    std::vector<std::vector<int64_t>> shapes;
    if (config.embed > 0)
        shapes.push_back({v, config.embed});
    for (int layer = 0; layer < config.layers; ++layer) {
        const int64_t input = layer > 0 ? h : config.embed > 0 ? config.embed : v;
        shapes.push_back({g, input});
        shapes.push_back({g, h});
        shapes.push_back({g});
        shapes.push_back({g});
    }
    shapes.push_back({v, h});
    shapes.push_back({v});
    return shapes;
}

template <typename Float>
CharParameterView<Float>::CharParameterView(Float *flat, const CharModelConfig &config, int alphabetSize)
{
    const std::vector<std::vector<int64_t>> shapes = charParameterShapes(config, alphabetSize);
    size_t next = 0;
    auto take = [&] {
        Float *p = flat;
        int64_t size = 1;
        for (int64_t d : shapes[next])
            size *= d;
        ++next;
        flat += size;
        return p;
    };
    if (config.embed > 0)
        embedding = take();
    for (int layer = 0; layer < config.layers; ++layer) {
        Layer l;
        l.inputWeights = take();
        l.hiddenWeights = take();
        l.inputBias = take();
        l.hiddenBias = take();
        layers.push_back(l);
    }
    outputWeights = take();
    outputBias = take();
}

template struct CharParameterView<float>;
template struct CharParameterView<const float>;

RecurrentStack::RecurrentStack(const CharModelConfig &config, int alphabetSize, int rows, int maxSteps)
    : m_config(config)
    , m_alphabet(alphabetSize)
    , m_rows(rows)
    , m_maxSteps(maxSteps)
    , m_inputSize(config.embed > 0 ? config.embed : alphabetSize)
    , m_gateWidth(gateCount(config.cell) * config.hidden)
    , m_sweep(config.cell, config.hidden, rows)
{
    const size_t h = size_t(config.hidden), r = size_t(rows), t = size_t(maxSteps), g = size_t(m_gateWidth);
    m_stateHidden.assign(size_t(config.layers), std::vector<float>(r * h));
    if (config.cell == RecurrentCell::Lstm)
        m_stateCell.assign(size_t(config.layers), std::vector<float>(r * h));
    m_layers.resize(size_t(config.layers));
    for (RecurrentActivations &layer : m_layers)
        layer.allocate(config.cell, rows, maxSteps, config.hidden);
    m_active.resize(t);
    m_inputGates.resize(t * r * g);
    m_inputTable.resize(size_t(alphabetSize) * g);
    m_bias.resize(g);
    m_logits.resize(t * r * size_t(alphabetSize));
    m_dHidden.resize(t * r * h);
    m_dInputGates.resize(t * r * g);
    if (config.cell == RecurrentCell::Gru)
        m_dHiddenGates.resize(t * r * g);
    m_dInputTable.resize(size_t(alphabetSize) * g);
}

void RecurrentStack::resetState()
{
    for (auto &state : m_stateHidden)
        std::fill(state.begin(), state.end(), 0.0f);
    for (auto &state : m_stateCell)
        std::fill(state.begin(), state.end(), 0.0f);
}

void RecurrentStack::countActiveRows(const CharWindow &window)
{
    if (window.rows != m_rows || window.steps < 0 || window.steps > m_maxSteps ||
        int64_t(window.rowSteps.size()) != m_rows ||
        int64_t(window.inputs.size()) < int64_t(window.steps) * m_rows ||
        int64_t(window.targets.size()) < int64_t(window.steps) * m_rows)
        throw std::invalid_argument("RecurrentStack: the window does not have the rows and steps it was built for");
    for (int t = 0; t < window.steps; ++t) {
        int n = 0;
        while (n < m_rows && window.rowSteps[size_t(n)] > t)
            ++n;
        m_active[size_t(t)] = n;
    }
}

// m_inputGates = W_ih x + b_ih for every step (+ b_hh for the RNN and LSTM, whose two biases
// only ever appear summed; for the GRU, whose cell adds its biases itself, W_ih x alone). The first
// layer's rows come from a table of them per character, the alphabet being far smaller than a
// window: the GRU, which only reads them, reads the table in place; the RNN and LSTM, which add the
// recurrent product to them, get copies.
void RecurrentStack::projectInputs(const CharParameterView<const float> &p, const CharWindow &window, int layer)
{
    const auto &w = p.layers[size_t(layer)];
    const int h = m_config.hidden, g = m_gateWidth, rows = m_rows, steps = window.steps;
    const bool gru = m_config.cell == RecurrentCell::Gru;
    if (gru) {
        std::fill(m_bias.begin(), m_bias.end(), 0.0f);
    } else {
        std::copy(w.inputBias, w.inputBias + g, m_bias.begin());
        addInPlace(m_bias.data(), w.hiddenBias, g);
    }
    float *gi = m_inputGates.data();
    if (layer > 0) {
        if (!gru)
            copyRows(gi, m_bias.data(), int64_t(steps) * rows, g);
        matrixProduct(false, true, steps * rows, g, h, 1.0f,
                      m_layers[size_t(layer - 1)].hidden.data() + size_t(rows) * h, h, w.inputWeights, h,
                      gru ? 0.0f : 1.0f, gi, g);
        return;
    }
    float *table = m_inputTable.data();
    copyRows(table, m_bias.data(), m_alphabet, g);
    if (p.embedding)
        matrixProduct(false, true, m_alphabet, g, m_inputSize, 1.0f, p.embedding, m_inputSize, w.inputWeights,
                      m_inputSize, 1.0f, table, g);
    else
        for (int j = 0; j < g; ++j)
            for (int c = 0; c < m_alphabet; ++c)
                table[size_t(c) * g + j] += w.inputWeights[size_t(j) * m_alphabet + c];
    if (gru)
        return;
    for (int t = 0; t < steps; ++t)
        for (int b = 0; b < m_active[size_t(t)]; ++b) {
            const int32_t c = window.inputs[size_t(t) * rows + b];
            std::memcpy(gi + (size_t(t) * rows + b) * g, table + size_t(c) * g, size_t(g) * sizeof(float));
        }
}

RecurrentSweep::Weights RecurrentStack::sweepWeights(const CharParameterView<const float> &p, int layer) const
{
    const auto &w = p.layers[size_t(layer)];
    return {w.hiddenWeights, w.inputBias, w.hiddenBias};
}

// The first layer reads its gates per character from m_inputTable (the GRU in place, the others
// from copies in m_inputGates), and its gates' gradients are summed per character.
RecurrentSweep::Inputs RecurrentStack::sweepInputs(const CharWindow &window, int layer)
{
    RecurrentSweep::Inputs in;
    if (layer > 0 || m_config.cell != RecurrentCell::Gru)
        in.gates = m_inputGates.data();
    if (layer == 0) {
        in.table = m_inputTable.data();
        in.tableIndex = window.inputs.data();
        in.tableRows = m_alphabet;
    }
    return in;
}

double RecurrentStack::forward(const CharParameterView<const float> &p, const CharWindow &window, bool forBackward)
{
    countActiveRows(window);
    const int h = m_config.hidden, v = m_alphabet, rows = m_rows, steps = window.steps;
    const bool lstm = m_config.cell == RecurrentCell::Lstm;
    for (int layer = 0; layer < m_config.layers; ++layer) {
        RecurrentActivations &a = m_layers[size_t(layer)];
        std::copy(m_stateHidden[size_t(layer)].begin(), m_stateHidden[size_t(layer)].end(), a.hidden.begin());
        if (lstm)
            std::copy(m_stateCell[size_t(layer)].begin(), m_stateCell[size_t(layer)].end(), a.cell.begin());
        projectInputs(p, window, layer);
        m_sweep.forward(sweepWeights(p, layer), sweepInputs(window, layer), m_active, steps, a);
    }

    // The logits of every step at once, then the cross-entropy of the rows still reading.
    const float *top = m_layers.back().hidden.data() + size_t(rows) * h;
    float *logits = m_logits.data();
    copyRows(logits, p.outputBias, int64_t(steps) * rows, v);
    matrixProduct(false, true, steps * rows, v, h, 1.0f, top, h, p.outputWeights, h, 1.0f, logits, v);
    double loss = 0;
    for (int t = 0; t < steps; ++t)
        for (int b = 0; b < m_active[size_t(t)]; ++b) {
            float *row = logits + (size_t(t) * rows + b) * v;
            const float largest = *std::max_element(row, row + v);
            const float target = row[window.targets[size_t(t) * rows + b]];
            float sum = 0;
            for (int c = 0; c < v; ++c)
                sum += row[c] = std::exp(row[c] - largest);
            loss += double(largest + std::log(sum) - target);
            if (forBackward)
                for (int c = 0; c < v; ++c)
                    row[c] /= sum;
        }

    // Each row carries on from its last step.
    for (int layer = 0; layer < m_config.layers; ++layer) {
        const RecurrentActivations &a = m_layers[size_t(layer)];
        for (int b = 0; b < rows; ++b) {
            const int last = window.rowSteps[size_t(b)];
            if (last == 0)
                continue;
            const size_t from = (size_t(last) * rows + b) * h;
            std::copy(a.hidden.begin() + long(from), a.hidden.begin() + long(from + h),
                      m_stateHidden[size_t(layer)].begin() + long(size_t(b) * h));
            if (lstm)
                std::copy(a.cell.begin() + long(from), a.cell.begin() + long(from + h),
                          m_stateCell[size_t(layer)].begin() + long(size_t(b) * h));
        }
    }
    return loss;
}

void RecurrentStack::backward(const CharParameterView<const float> &p, const CharWindow &window, float lossScale,
                              const CharParameterView<float> &gradients)
{
    const int h = m_config.hidden, v = m_alphabet, g = m_gateWidth, rows = m_rows, steps = window.steps;
    const int all = steps * rows;

    // The logits' gradient, (softmax - one-hot) x scale, and the output layer's.
    float *dLogits = m_logits.data();
    for (int t = 0; t < steps; ++t) {
        const int n = m_active[size_t(t)];
        for (int b = 0; b < n; ++b) {
            float *row = dLogits + (size_t(t) * rows + b) * v;
            for (int c = 0; c < v; ++c)
                row[c] *= lossScale;
            row[window.targets[size_t(t) * rows + b]] -= lossScale;
        }
        std::fill(dLogits + (size_t(t) * rows + n) * v, dLogits + size_t(t + 1) * rows * v, 0.0f);
    }
    const float *top = m_layers.back().hidden.data() + size_t(rows) * h;
    matrixProduct(true, false, v, h, all, 1.0f, dLogits, v, top, h, 0.0f, gradients.outputWeights, h);
    columnSums(dLogits, all, v, gradients.outputBias);
    matrixProduct(false, false, all, h, v, 1.0f, dLogits, v, p.outputWeights, h, 0.0f, m_dHidden.data(), h);

    for (int layer = m_config.layers - 1; layer >= 0; --layer) {
        const auto &w = p.layers[size_t(layer)];
        const auto &dw = gradients.layers[size_t(layer)];
        RecurrentSweep::Gradients d;
        d.dInputGates = m_dInputGates.data();
        d.dHiddenGates = m_dHiddenGates.empty() ? nullptr : m_dHiddenGates.data();
        d.dTable = m_dInputTable.data();
        d.dInputBias = dw.inputBias;
        d.dHiddenBias = dw.hiddenBias;
        m_sweep.backward(sweepWeights(p, layer), sweepInputs(window, layer), m_active, steps, m_layers[size_t(layer)],
                         m_dHidden.data(), d);
        const float *dgh = m_config.cell == RecurrentCell::Gru ? m_dHiddenGates.data() : m_dInputGates.data();
        const float *dgi = m_dInputGates.data();
        // Each weight's gradient once, over all steps: dW_hh = sum_t dG_t^T h_(t-1).
        matrixProduct(true, false, g, h, all, 1.0f, dgh, g, m_layers[size_t(layer)].hidden.data(), h, 0.0f,
                      dw.hiddenWeights, h);
        if (layer > 0) {
            const float *below = m_layers[size_t(layer - 1)].hidden.data() + size_t(rows) * h;
            matrixProduct(true, false, g, h, all, 1.0f, dgi, g, below, h, 0.0f, dw.inputWeights, h);
            matrixProduct(false, false, all, h, g, 1.0f, dgi, g, w.inputWeights, h, 0.0f, m_dHidden.data(), h);
            continue;
        }
        // The first layer's input is a character: its gate gradients summed per character give W_ih's
        // and the embedding's gradients from the alphabet's rows rather than the window's.
        const float *perCharacter = m_dInputTable.data();
        if (p.embedding) {
            matrixProduct(true, false, g, m_inputSize, v, 1.0f, perCharacter, g, p.embedding, m_inputSize, 0.0f,
                          dw.inputWeights, m_inputSize);
            matrixProduct(false, false, v, m_inputSize, g, 1.0f, perCharacter, g, w.inputWeights, m_inputSize, 0.0f,
                          gradients.embedding, m_inputSize);
        } else {
            for (int j = 0; j < g; ++j)
                for (int c = 0; c < v; ++c)
                    dw.inputWeights[size_t(j) * v + c] = perCharacter[size_t(c) * g + j];
        }
    }
}
