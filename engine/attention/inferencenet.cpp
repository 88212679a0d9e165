#include "engine/attention/inferencenet.h"

#include "engine/attention/seq2seqnet.h"
#include "engine/attention/seq2seqweights.h"
#include "engine/core/vocabulary.h"
#include "engine/fast/fastmath.h"
#include "engine/fast/grustep.h"
#include "engine/fast/matrixproduct.h"
#include "engine/fast/parallelfor.h"

#include <cblas.h>

#include <algorithm>
#include <cmath>

namespace {

std::vector<float> floats(const torch::Tensor &t)
{
    const torch::Tensor c = t.detach().to(torch::kFloat).contiguous();
    return {c.data_ptr<float>(), c.data_ptr<float>() + c.numel()};
}

// Below this many weights a loop's products are cheaper on one thread than split: the helper's
// hand-over costs ~1 us.
constexpr std::size_t kSharedWeights = 64 * 1024;
constexpr int kParts = 2;

// Calls piece(matrix, begin, end) over row ranges of matrices with `rows[i]` rows of `columns`
// weights each, so that together they cover every row once: in kParts pieces of about equal
// rows on this thread and the helper when there is enough work, else in one.
template <typename Piece>
void forRows(const std::vector<int> &rows, int columns, const Piece &piece)
{
    int total = 0;
    for (int r : rows)
        total += r;
    const int parts = std::size_t(total) * std::size_t(columns) >= kSharedWeights ? kParts : 1;
    parallelFor(parts, [&](int part) {
        const auto [begin, end] = partRange(total, part, parts);
        int offset = 0, matrix = 0;
        for (int r : rows) {
            const int b = std::max(begin - offset, 0), e = std::min(end - offset, r);
            if (b < e)
                piece(matrix, b, e);
            offset += r;
            ++matrix;
        }
    }, Workers::Helper);
}

// y (count, ldy) += x (count, columns) . w^T, w (rows, columns) row-major, on this thread alone:
// a matrix-vector product for one row of x, oneDNN's matrix product for several (OpenBLAS packs
// all of w again for each call, which outweighs the product itself at a beam's few rows).
void addRowsProduct(const float *x, int count, int columns, const float *w, int rows, float *y, int ldy)
{
    if (count == 1)
        cblas_sgemv(CblasRowMajor, CblasNoTrans, rows, columns, 1.0f, w, columns, x, 1, 1.0f, y, 1);
    else
        matrixProduct(false, true, count, rows, columns, 1.0f, x, columns, w, columns, 1.0f, y, ldy);
}

// y (count, rows) += x (count, columns) . W^T, W (rows, columns) row-major.
struct Product {
    const std::vector<float> &w;
    int rows;
    const float *x;
    float *y;
    int count = 1;
};

// Every product, all with `columns` columns, split by rows of W (see forRows).
void addProductsShared(const std::vector<Product> &products, int columns)
{
    std::vector<int> rows;
    for (const Product &p : products)
        rows.push_back(p.rows);
    forRows(rows, columns, [&](int i, int begin, int end) {
        const Product &p = products[std::size_t(i)];
        addRowsProduct(p.x, p.count, columns, p.w.data() + std::size_t(begin) * columns, end - begin, p.y + begin, p.rows);
    });
}

// y (count, columns) += a (count, rows) . m, m (rows, columns): each row of y gains its row of
// weights' mix of m's rows.
void addWeightedRows(const std::vector<float> &m, int rows, int columns, const float *a, int count, float *y)
{
    if (count == 1)
        cblas_sgemv(CblasRowMajor, CblasTrans, rows, columns, 1.0f, m.data(), columns, a, 1, 1.0f, y, 1);
    else
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, count, columns, rows, 1.0f, a, rows, m.data(), columns,
                    1.0f, y, columns);
}

// c (count, w's rows) = x (count, columns) . w^T for each product of the same x, split by rows of
// w (see forRows).
struct RowsProduct {
    const std::vector<float> &w;
    int rows;
    std::vector<float> &c;
};

void multiplyRowsShared(const float *x, int count, int columns, std::initializer_list<RowsProduct> products)
{
    std::vector<Product> sums;
    for (const RowsProduct &p : products) {
        p.c.assign(std::size_t(count) * std::size_t(p.rows), 0.0f);
        sums.push_back({p.w, p.rows, x, p.c.data(), count});
    }
    addProductsShared(sums, columns);
}

// `count` copies of `row` one after another.
void repeatRow(const std::vector<float> &row, int count, std::vector<float> &out)
{
    out.resize(row.size() * std::size_t(count));
    for (int r = 0; r < count; ++r)
        std::copy(row.begin(), row.end(), out.begin() + std::ptrdiff_t(r) * std::ptrdiff_t(row.size()));
}

// Copies `count` floats from row `row` of a (rows, count) table.
void copyRow(const std::vector<float> &table, int row, int count, float *out)
{
    std::copy_n(table.data() + std::size_t(row) * std::size_t(count), count, out);
}

}

bool InferenceNet::supports(Seq2SeqNetImpl &net)
{
    return net.decoder->kind() == AttentionKind::Bahdanau && net.decoder->cell() == RecurrentCell::Gru;
}

InferenceNet::InferenceNet(Seq2SeqNetImpl &net)
{
    torch::NoGradGuard noGrad;
    const Seq2SeqWeights weights = weightsOf(net);
    const EncoderWeights &encoder = weights.encoder;
    const DecoderWeights &decoder = weights.decoder;
    m_layers = int(decoder.layers.size());
    m_directions = encoder.directions;
    m_hidden = int(decoder.layers.front().hiddenWeight.size(1));
    m_vocabulary = int(decoder.embedding.size(0));
    m_attention = int(decoder.queryWeight.size(0));
    const int embed = int(decoder.embedding.size(1));

    for (int layer = 0; layer < m_layers; ++layer)
        for (int direction = 0; direction < m_directions; ++direction) {
            const RecurrentLayerWeights &w = encoder.layer(layer, direction);
            GruWeights g;
            g.size = int(w.hiddenWeight.size(1));
            g.inputSize = int(w.inputWeight.size(1));
            g.inputToGates = floats(w.inputWeight);
            g.inputBias = floats(w.inputBias);
            g.hiddenToGates = floats(w.hiddenWeight);
            g.hiddenBias = floats(w.hiddenBias);
            if (layer == 0)
                g.tokenGates = floats(torch::addmm(w.inputBias, encoder.embedding, w.inputWeight.t()));
            m_encoder.push_back(std::move(g));
        }
    if (encoder.bridgeWeight.defined()) {
        m_bridge = floats(encoder.bridgeWeight);
        m_bridgeBias = floats(encoder.bridgeBias);
    }

    for (int layer = 0; layer < m_layers; ++layer) {
        const RecurrentLayerWeights &w = decoder.layers[std::size_t(layer)];
        GruWeights g;
        g.size = m_hidden;
        g.inputSize = int(w.inputWeight.size(1));
        if (layer == 0) {
            g.tokenGates = floats(torch::addmm(w.inputBias, decoder.embedding, decoder.embeddingToGates.t()));
            m_contextToGates = floats(decoder.contextToGates);
        } else {
            g.inputToGates = floats(w.inputWeight);
            g.inputBias = floats(w.inputBias);
        }
        if (layer + 1 < m_layers) {
            g.hiddenToGates = floats(w.hiddenWeight);
            g.hiddenBias = floats(w.hiddenBias);
        }
        m_decoder.push_back(std::move(g));
    }
    const RecurrentLayerWeights &top = decoder.layers.back();
    const torch::Tensor &ws = decoder.queryWeight;
    m_top = floats(torch::cat({ws, top.hiddenWeight}));
    m_topBias = floats(torch::cat({torch::zeros({ws.size(0)}, ws.options()), top.hiddenBias}));
    m_keysWeight = floats(decoder.keysWeight);
    m_score = floats(decoder.scoreWeight);
    m_stateToLogits = floats(decoder.stateToLogits);
    m_contextToLogits = floats(decoder.contextToLogits);
    m_embed = embed;
    m_embedding = floats(decoder.embedding);
    m_embeddingToLogits = floats(decoder.embeddingToLogits);
    m_outputBias = floats(decoder.outputBias);
    m_pointer = decoder.stateToCopy.defined();
    if (m_pointer) {
        m_stateToCopy = floats(decoder.stateToCopy);
        m_contextToCopy = floats(decoder.contextToCopy);
        m_embeddingToCopy = floats(decoder.embeddingToCopy);
        m_copyBias = decoder.copyBias.item<float>();
    }
}

void InferenceNet::encode(const std::vector<int> &source, const std::vector<int> &extended)
{
    m_extended = extended.empty() ? source : extended;
    m_extendedWidth = std::max(m_vocabulary, *std::max_element(m_extended.begin(), m_extended.end()) + 1);
    const int length = int(source.size());
    const int size = m_encoder.front().size;
    const int width = m_directions * size;
    std::vector<float> input, output;
    std::vector<float> finals(std::size_t(m_layers * width));
    for (int layer = 0; layer < m_layers; ++layer) {
        output.assign(std::size_t(length * width), 0.0f);
        // The directions read the same input and write their own columns: one on each thread.
        parallelFor(m_directions, [&](int direction) {
            const GruWeights &g = m_encoder[std::size_t(layer * m_directions + direction)];
            std::vector<float> gates(std::size_t(length * 3 * size)), hiddenGates(std::size_t(3 * size));
            if (layer > 0)
                addRowsProduct(input.data(), length, g.inputSize, g.inputToGates.data(), 3 * size, gates.data(), 3 * size);
            for (int t = 0; t < length; ++t) {
                float *row = gates.data() + t * 3 * size;
                if (layer == 0)
                    copyRow(g.tokenGates, source[std::size_t(t)], 3 * size, row);
                else
                    for (int i = 0; i < 3 * size; ++i)
                        row[i] += g.inputBias[std::size_t(i)];
            }
            float *state = finals.data() + layer * width + direction * size;
            std::fill_n(state, size, 0.0f);
            for (int step = 0; step < length; ++step) {
                const int t = direction ? length - 1 - step : step;
                hiddenGates = g.hiddenBias;
                addRowsProduct(state, 1, size, g.hiddenToGates.data(), 3 * size, hiddenGates.data(), 3 * size);
                gruCell(gates.data() + t * 3 * size, hiddenGates.data(), state, nullptr, size);
                std::copy_n(state, size, output.data() + t * width + direction * size);
            }
        }, Workers::Helper);
        input.swap(output);
    }
    m_length = length;
    m_values = std::move(input);
    m_state.assign(std::size_t(m_layers), {});
    for (int layer = 0; layer < m_layers; ++layer) {
        std::vector<float> &s = m_state[std::size_t(layer)];
        if (m_bridge.empty()) {  // no bridge: the decoder starts from zeros
            s.assign(std::size_t(m_hidden), 0.0f);
            continue;
        }
        s = m_bridgeBias;
        addRowsProduct(finals.data() + layer * width, 1, width, m_bridge.data(), m_hidden, s.data(), m_hidden);
        for (float &x : s)
            x = std::tanh(x);
    }
    multiplyRowsShared(m_values.data(), length, m_hidden,
                       {{m_keysWeight, m_attention, m_keys}, {m_contextToGates, 3 * m_hidden, m_valueGates},
                        {m_contextToLogits, m_vocabulary, m_valueLogits}});
    if (m_pointer) {
        m_valueCopy.assign(std::size_t(length), 0.0f);
        addRowsProduct(m_contextToCopy.data(), 1, m_hidden, m_values.data(), length, m_valueCopy.data(), length);
    }
}

void InferenceNet::advance(const std::vector<int> &extendedTokens)
{
    const int rows = int(extendedTokens.size()), length = m_length, hidden = m_hidden, attention = m_attention;
    std::vector<int> tokens(extendedTokens);
    for (int &token : tokens)
        if (token >= m_vocabulary)
            token = Vocabulary::kUnk;
    const int topWidth = int(m_topBias.size()), gateWidth = 3 * hidden;
    // Everything that reads only the previous states, in one loop: the attention query W_s s
    // and the top layer's W_hh s (one matrix, m_top), and each lower layer's W_hh h.
    repeatRow(m_topBias, rows, m_topOut);
    std::vector<Product> previous{{m_top, topWidth, m_state.back().data(), m_topOut.data(), rows}};
    m_hiddenGates.resize(std::size_t(m_layers - 1));
    for (int layer = 0; layer + 1 < m_layers; ++layer) {
        std::vector<float> &gates = m_hiddenGates[std::size_t(layer)];
        repeatRow(m_decoder[std::size_t(layer)].hiddenBias, rows, gates);
        previous.push_back({m_decoder[std::size_t(layer)].hiddenToGates, gateWidth, m_state[std::size_t(layer)].data(),
                            gates.data(), rows});
    }
    addProductsShared(previous, hidden);

    m_energy.resize(std::size_t(length * attention));
    m_weights.assign(std::size_t(rows * length), 0.0f);
    for (int r = 0; r < rows; ++r) {
        const float *query = m_topOut.data() + std::ptrdiff_t(r) * topWidth;
        float *weights = m_weights.data() + std::ptrdiff_t(r) * length;
        for (int i = 0; i < length; ++i)
            for (int a = 0; a < attention; ++a)
                m_energy[std::size_t(i * attention + a)] = fastTanh(m_keys[std::size_t(i * attention + a)] + query[a]);
        addRowsProduct(m_score.data(), 1, attention, m_energy.data(), length, weights, length);
        const float highest = *std::max_element(weights, weights + length);
        float sum = 0;
        for (int i = 0; i < length; ++i)
            sum += (weights[i] = std::exp(weights[i] - highest));
        for (int i = 0; i < length; ++i)
            weights[i] /= sum;
    }

    m_gates.resize(std::size_t(rows * gateWidth));
    for (int r = 0; r < rows; ++r)
        copyRow(m_decoder.front().tokenGates, tokens[std::size_t(r)], gateWidth, m_gates.data() + std::ptrdiff_t(r) * gateWidth);
    addWeightedRows(m_valueGates, length, gateWidth, m_weights.data(), rows, m_gates.data());
    for (int layer = 0; layer < m_layers; ++layer) {
        const GruWeights &g = m_decoder[std::size_t(layer)];
        const bool top = layer + 1 == m_layers;
        const float *hiddenGates = top ? m_topOut.data() + attention : m_hiddenGates[std::size_t(layer)].data();
        const int hiddenStride = top ? topWidth : gateWidth;
        const float *gates = m_gates.data();
        if (layer > 0) {
            repeatRow(g.inputBias, rows, m_inputGates);
            addProductsShared({{g.inputToGates, gateWidth, m_state[std::size_t(layer) - 1].data(), m_inputGates.data(), rows}},
                              hidden);
            gates = m_inputGates.data();
        }
        float *state = m_state[std::size_t(layer)].data();
        for (int r = 0; r < rows; ++r)
            gruCell(gates + std::ptrdiff_t(r) * gateWidth, hiddenGates + std::ptrdiff_t(r) * hiddenStride,
                    state + std::ptrdiff_t(r) * hidden, nullptr, hidden);
    }

    repeatRow(m_outputBias, rows, m_logits);
    m_embedded.resize(std::size_t(rows * m_embed));
    for (int r = 0; r < rows; ++r)
        copyRow(m_embedding, tokens[std::size_t(r)], m_embed, m_embedded.data() + std::ptrdiff_t(r) * m_embed);
    addRowsProduct(m_embedded.data(), rows, m_embed, m_embeddingToLogits.data(), m_vocabulary, m_logits.data(),
                   m_vocabulary);
    addProductsShared({{m_stateToLogits, m_vocabulary, m_state.back().data(), m_logits.data(), rows}}, hidden);
    addWeightedRows(m_valueLogits, length, m_vocabulary, m_weights.data(), rows, m_logits.data());
    if (m_pointer)
        mixPointer(rows);
}

// P(w) = p_gen softmax(logits)_w + (1 - p_gen) sum_{i: x_i = w} a_i, as pointerDistribution().
void InferenceNet::mixPointer(int rows)
{
    const int length = m_length, width = m_extendedWidth;
    m_copyGates.resize(std::size_t(rows));
    m_mixture.assign(std::size_t(rows) * std::size_t(width), 0.0f);
    for (int r = 0; r < rows; ++r) {
        const float *state = m_state.back().data() + std::ptrdiff_t(r) * m_hidden;
        const float *weights = m_weights.data() + std::ptrdiff_t(r) * length;
        const float *embedded = m_embedded.data() + std::ptrdiff_t(r) * m_embed;
        float sum = m_copyBias;
        for (int k = 0; k < m_hidden; ++k)
            sum += m_stateToCopy[std::size_t(k)] * state[k];
        for (int i = 0; i < length; ++i)
            sum += m_valueCopy[std::size_t(i)] * weights[i];
        for (int k = 0; k < m_embed; ++k)
            sum += m_embeddingToCopy[std::size_t(k)] * embedded[k];
        const float gate = 1.0f / (1.0f + std::exp(-sum));
        m_copyGates[std::size_t(r)] = gate;

        const float *logits = m_logits.data() + std::ptrdiff_t(r) * m_vocabulary;
        float *mixture = m_mixture.data() + std::ptrdiff_t(r) * width;
        const float highest = *std::max_element(logits, logits + m_vocabulary);
        float total = 0;
        for (int v = 0; v < m_vocabulary; ++v)
            total += (mixture[v] = std::exp(logits[v] - highest));
        for (int v = 0; v < m_vocabulary; ++v)
            mixture[v] = mixture[v] / total * gate;
        for (int i = 0; i < length; ++i)
            mixture[m_extended[std::size_t(i)]] += weights[i] * (1.0f - gate);
    }
}

InferenceNetOutput InferenceNet::greedy(const std::vector<int> &source, int maxSteps, bool stopAtEos,
                                        const std::vector<int> &extended)
{
    encode(source, extended);
    InferenceNetOutput out;
    int token = Vocabulary::kSos;
    for (int step = 0; step < maxSteps; ++step) {
        advance({token});
        const std::vector<float> &scores = m_pointer ? m_mixture : m_logits;
        token = int(std::max_element(scores.begin(), scores.end()) - scores.begin());
        if (m_pointer)
            out.copyGate.push_back(m_copyGates.front());
        out.tokens.push_back(token);
        out.weights.insert(out.weights.end(), m_weights.begin(), m_weights.end());
        if (stopAtEos && token == Vocabulary::kEos)
            break;
    }
    return out;
}

void InferenceNet::begin(const std::vector<int> &source, const std::vector<int> &extended)
{
    encode(source, extended);
}

BeamScores InferenceNet::step(const std::vector<int> &parents, const std::vector<int> &lastTokens)
{
    for (std::vector<float> &state : m_state) {
        std::vector<float> reordered(parents.size() * std::size_t(m_hidden));
        for (std::size_t r = 0; r < parents.size(); ++r)
            std::copy_n(state.data() + std::ptrdiff_t(parents[r]) * m_hidden, m_hidden,
                        reordered.data() + std::ptrdiff_t(r) * m_hidden);
        state.swap(reordered);
    }
    advance(lastTokens);
    BeamScores scores;
    scores.attention = m_weights;
    if (m_pointer) {
        scores.logProbs.resize(m_mixture.size());
        std::transform(m_mixture.begin(), m_mixture.end(), scores.logProbs.begin(),
                       [](float p) { return std::log(p); });
        scores.copyGate = m_copyGates;
        return scores;
    }
    scores.logProbs = m_logits;
    for (std::size_t r = 0; r < parents.size(); ++r) {
        float *row = scores.logProbs.data() + std::ptrdiff_t(r) * m_vocabulary;
        const float highest = *std::max_element(row, row + m_vocabulary);
        double sum = 0;
        for (int v = 0; v < m_vocabulary; ++v)
            sum += std::exp(double(row[v] - highest));
        const float logSum = highest + float(std::log(sum));
        for (int v = 0; v < m_vocabulary; ++v)
            row[v] -= logSum;
    }
    return scores;
}
