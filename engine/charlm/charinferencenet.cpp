#include "engine/charlm/charinferencenet.h"

#include "engine/fast/fastmath.h"
#include "engine/fast/grustep.h"
#include "engine/fast/singlethreadscope.h"

#include <cblas.h>

#include <algorithm>
#include <stdexcept>
#include <string>

namespace {

// y = b + W x, W (rows, columns) row-major.
void multiply(const std::vector<float> &w, const std::vector<float> &b, int rows, int columns, const float *x, float *y)
{
    std::copy(b.begin(), b.end(), y);
    cblas_sgemv(CblasRowMajor, CblasNoTrans, rows, columns, 1.0f, w.data(), columns, x, 1, 1.0f, y, 1);
}

void rnnCell(const float *__restrict inputGates, const float *__restrict hiddenGates, float *__restrict h, int n)
{
    for (int k = 0; k < n; ++k)
        h[k] = fastTanh(inputGates[k] + hiddenGates[k]);
}

// Gates i | f | g | o, as torch::nn::LSTM orders them.
void lstmCell(const float *__restrict inputGates, const float *__restrict hiddenGates, float *__restrict h,
              float *__restrict c, int n)
{
    for (int k = 0; k < n; ++k) {
        const float i = sigmoid(inputGates[k] + hiddenGates[k]);
        const float f = sigmoid(inputGates[n + k] + hiddenGates[n + k]);
        const float g = fastTanh(inputGates[2 * n + k] + hiddenGates[2 * n + k]);
        const float o = sigmoid(inputGates[3 * n + k] + hiddenGates[3 * n + k]);
        c[k] = f * c[k] + i * g;
        h[k] = o * fastTanh(c[k]);
    }
}

}

CharInferenceNet::CharInferenceNet(const CharWeights &weights) : m_weights(weights)
{
    const std::string problem = m_weights.checkSizes();
    if (!problem.empty())
        throw std::invalid_argument(problem);
    if (!std::is_sorted(m_weights.alphabet.begin(), m_weights.alphabet.end()) ||
        std::adjacent_find(m_weights.alphabet.begin(), m_weights.alphabet.end()) != m_weights.alphabet.end())
        throw std::invalid_argument("The model's alphabet is not a sorted list of distinct characters.");

    // The first layer's input only ever is one of the alphabet's characters, so W_ih x + b_ih is
    // one row of a table: each character's embedding through W_ih, or W_ih's column for its
    // one-hot vector.
    const int v = alphabetSize(), rows = gateCount(m_weights.config.cell) * hiddenSize();
    const CharLayerWeights &first = m_weights.layers.front();
    m_characterGates.resize(std::size_t(v) * std::size_t(rows));
    for (int c = 0; c < v; ++c)
        std::copy(first.inputBias.begin(), first.inputBias.end(), m_characterGates.begin() + std::ptrdiff_t(c) * rows);
    if (m_weights.config.embed > 0) {
        const int e = m_weights.config.embed;
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, v, rows, e, 1.0f, m_weights.embedding.data(), e,
                    first.inputWeights.data(), e, 1.0f, m_characterGates.data(), rows);
    } else {
        for (int r = 0; r < rows; ++r)
            for (int c = 0; c < v; ++c)
                m_characterGates[std::size_t(c) * std::size_t(rows) + std::size_t(r)] +=
                    first.inputWeights[std::size_t(r) * std::size_t(v) + std::size_t(c)];
    }
}

CharInferenceNet::State CharInferenceNet::start() const
{
    const std::size_t layerValues = std::size_t(layers()) * std::size_t(hiddenSize());
    return {std::vector<float>(m_weights.config.cell == RecurrentCell::Lstm ? 2 * layerValues : layerValues, 0.0f)};
}

void CharInferenceNet::step(int id, State &state, float *logits) const
{
    if (id < 0 || id >= alphabetSize())
        throw std::out_of_range("CharInferenceNet::step: character " + std::to_string(id) + " is not in the alphabet");
    const RecurrentCell cell = m_weights.config.cell;
    const int h = hiddenSize(), count = layers(), rows = gateCount(cell) * h;
    if (state.values.size() != std::size_t(count) * std::size_t(h) * (cell == RecurrentCell::Lstm ? 2 : 1))
        throw std::invalid_argument("CharInferenceNet::step: the state is not one of this model's");
    float *states = state.values.data();
    float *cells = states + std::size_t(count) * std::size_t(h);  // LSTM only
    // BLAS on this thread alone (see the class comment).
    const SingleThreadScope singleThread;

    std::vector<float> inputGates(static_cast<std::size_t>(rows)), hiddenGates(inputGates.size());
    for (int layer = 0; layer < count; ++layer) {
        const CharLayerWeights &w = m_weights.layers[std::size_t(layer)];
        float *hl = states + std::size_t(layer) * std::size_t(h);
        const float *gi = m_characterGates.data() + std::size_t(id) * std::size_t(rows);
        if (layer > 0) {
            multiply(w.inputWeights, w.inputBias, rows, h, hl - h, inputGates.data());
            gi = inputGates.data();
        }
        multiply(w.hiddenWeights, w.hiddenBias, rows, h, hl, hiddenGates.data());
        const float *gh = hiddenGates.data();
        switch (cell) {
        case RecurrentCell::Rnn:
            rnnCell(gi, gh, hl, h);
            break;
        case RecurrentCell::Gru:
            gruCell(gi, gh, hl, nullptr, h);
            break;
        case RecurrentCell::Lstm:
            lstmCell(gi, gh, hl, cells + std::size_t(layer) * std::size_t(h), h);
            break;
        }
    }
    multiply(m_weights.outputWeights, m_weights.outputBias, alphabetSize(), h, states + std::size_t(count - 1) * std::size_t(h),
             logits);
}

const float *CharInferenceNet::hidden(const State &state, int layer) const
{
    return state.values.data() + std::size_t(layer) * std::size_t(hiddenSize());
}

int CharInferenceNet::alphabetSize() const
{
    return m_weights.alphabetSize();
}

int CharInferenceNet::hiddenSize() const
{
    return m_weights.config.hidden;
}

int CharInferenceNet::layers() const
{
    return m_weights.config.layers;
}

const std::u32string &CharInferenceNet::alphabet() const
{
    return m_weights.alphabet;
}

int CharInferenceNet::idOf(char32_t c) const
{
    const auto it = std::lower_bound(m_weights.alphabet.begin(), m_weights.alphabet.end(), c);
    return it != m_weights.alphabet.end() && *it == c ? int(it - m_weights.alphabet.begin()) : -1;
}
