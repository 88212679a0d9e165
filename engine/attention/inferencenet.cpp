#include "engine/attention/inferencenet.h"

#include "engine/attention/seq2seqnet.h"
#include "engine/attention/seq2seqweights.h"
#include "engine/core/vocabulary.h"
#include "engine/fast/fastmath.h"
#include "engine/fast/grustep.h"
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

// y += W x, W (rows, columns) row-major.
struct Product {
    const std::vector<float> &w;
    int rows;
    const float *x;
    float *y;
};

// Every product, all with `columns` columns, split by rows (see forRows).
void addProductsShared(const std::vector<Product> &products, int columns)
{
    std::vector<int> rows;
    for (const Product &p : products)
        rows.push_back(p.rows);
    forRows(rows, columns, [&](int i, int begin, int end) {
        const Product &p = products[std::size_t(i)];
        cblas_sgemv(CblasRowMajor, CblasNoTrans, end - begin, columns, 1.0f, p.w.data() + std::size_t(begin) * columns,
                    columns, p.x, 1, 1.0f, p.y + begin, 1);
    });
}

// y += sum_i a_i m_i over the `count` rows of m (count, columns).
void addWeightedRows(const std::vector<float> &m, int count, int columns, const float *a, float *y)
{
    cblas_sgemv(CblasRowMajor, CblasTrans, count, columns, 1.0f, m.data(), columns, a, 1, 1.0f, y, 1);
}

// c (count, rows) = x (count, columns) . w^T, w (rows, columns): every row of x through w at
// once, on this thread alone; c's rows are `stride` apart.
void multiplyRows(const float *x, int count, int columns, const float *w, int rows, float *c, int stride)
{
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, count, rows, columns, 1.0f, x, columns, w, columns, 0.0f, c,
                stride);
}

// c = x . w^T as above, for the caller to size c (count, rows).
struct RowsProduct {
    const std::vector<float> &w;
    int rows;
    std::vector<float> &c;
};

// Every product of the same `x`, split by rows of w (see forRows).
void multiplyRowsShared(const float *x, int count, int columns, std::initializer_list<RowsProduct> products)
{
    std::vector<int> rows;
    for (const RowsProduct &p : products) {
        rows.push_back(p.rows);
        p.c.resize(std::size_t(count) * std::size_t(p.rows));
    }
    const RowsProduct *first = products.begin();
    forRows(rows, columns, [&](int i, int begin, int end) {
        const RowsProduct &p = first[i];
        multiplyRows(x, count, columns, p.w.data() + std::size_t(begin) * columns, end - begin, p.c.data() + begin, p.rows);
    });
}

// y += W x on this thread alone.
void addProduct(const std::vector<float> &w, int rows, int columns, const float *x, float *y)
{
    cblas_sgemv(CblasRowMajor, CblasNoTrans, rows, columns, 1.0f, w.data(), columns, x, 1, 1.0f, y, 1);
}

// Copies `count` floats from row `row` of a (rows, count) table.
void copyRow(const std::vector<float> &table, int row, int count, float *out)
{
    std::copy_n(table.data() + std::size_t(row) * std::size_t(count), count, out);
}

}

bool InferenceNet::supports(Seq2SeqNetImpl &net)
{
    return net.decoder->kind() == AttentionKind::Bahdanau;
}

InferenceNet::InferenceNet(Seq2SeqNetImpl &net)
{
    torch::NoGradGuard noGrad;
    const Seq2SeqWeights weights = weightsOf(net);
    const EncoderWeights &encoder = weights.encoder;
    const DecoderWeights &decoder = weights.decoder;
    m_layers = int(decoder.gru.size());
    m_directions = encoder.directions;
    m_hidden = int(decoder.gru.front().hiddenWeight.size(1));
    m_vocabulary = int(decoder.embedding.size(0));
    m_attention = int(decoder.queryWeight.size(0));
    const int embed = int(decoder.embedding.size(1));

    for (int layer = 0; layer < m_layers; ++layer)
        for (int direction = 0; direction < m_directions; ++direction) {
            const GruLayerWeights &w = encoder.layer(layer, direction);
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
    m_bridge = floats(encoder.bridgeWeight);
    m_bridgeBias = floats(encoder.bridgeBias);

    for (int layer = 0; layer < m_layers; ++layer) {
        const GruLayerWeights &w = decoder.gru[std::size_t(layer)];
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
    const GruLayerWeights &top = decoder.gru.back();
    const torch::Tensor &ws = decoder.queryWeight;
    m_top = floats(torch::cat({ws, top.hiddenWeight}));
    m_topBias = floats(torch::cat({torch::zeros({ws.size(0)}, ws.options()), top.hiddenBias}));
    m_keysWeight = floats(decoder.keysWeight);
    m_score = floats(decoder.scoreWeight);
    m_stateToLogits = floats(decoder.stateToLogits);
    m_contextToLogits = floats(decoder.contextToLogits);
    m_tokenLogits = floats(torch::addmm(decoder.outputBias, decoder.embedding, decoder.embeddingToLogits.t()));
}

void InferenceNet::encode(const std::vector<int> &source)
{
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
                multiplyRows(input.data(), length, g.inputSize, g.inputToGates.data(), 3 * size, gates.data(), 3 * size);
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
                addProduct(g.hiddenToGates, 3 * size, size, state, hiddenGates.data());
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
        s = m_bridgeBias;
        addProduct(m_bridge, m_hidden, width, finals.data() + layer * width, s.data());
        for (float &x : s)
            x = std::tanh(x);
    }
    multiplyRowsShared(m_values.data(), length, m_hidden,
                       {{m_keysWeight, m_attention, m_keys}, {m_contextToGates, 3 * m_hidden, m_valueGates},
                        {m_contextToLogits, m_vocabulary, m_valueLogits}});
}

InferenceNetOutput InferenceNet::greedy(const std::vector<int> &source, int maxSteps, bool stopAtEos)
{
    encode(source);
    const int length = m_length, hidden = m_hidden, attention = m_attention;
    m_topOut.resize(m_topBias.size());
    m_gates.resize(std::size_t(3 * hidden));
    m_hiddenGates.resize(std::size_t(m_layers - 1));
    m_logits.resize(std::size_t(m_vocabulary));
    m_energy.resize(std::size_t(length * attention));
    m_weights.resize(std::size_t(length));
    std::vector<float> inputGates(std::size_t(3 * hidden));

    InferenceNetOutput out;
    int token = Vocabulary::kSos;
    for (int step = 0; step < maxSteps; ++step) {
        // Everything that reads only the previous states, in one loop: the attention query W_s s
        // and the top layer's W_hh s (one matrix, m_top), and each lower layer's W_hh h.
        m_topOut = m_topBias;
        std::vector<Product> previous{{m_top, int(m_topOut.size()), m_state.back().data(), m_topOut.data()}};
        for (int layer = 0; layer + 1 < m_layers; ++layer) {
            std::vector<float> &gates = m_hiddenGates[std::size_t(layer)];
            gates = m_decoder[std::size_t(layer)].hiddenBias;
            previous.push_back({m_decoder[std::size_t(layer)].hiddenToGates, 3 * hidden, m_state[std::size_t(layer)].data(),
                                gates.data()});
        }
        addProductsShared(previous, hidden);
        for (int i = 0; i < length; ++i)
            for (int a = 0; a < attention; ++a)
                m_energy[std::size_t(i * attention + a)] =
                    fastTanh(m_keys[std::size_t(i * attention + a)] + m_topOut[std::size_t(a)]);
        std::fill(m_weights.begin(), m_weights.end(), 0.0f);
        addProduct(m_energy, length, attention, m_score.data(), m_weights.data());
        const float highest = *std::max_element(m_weights.begin(), m_weights.end());
        float sum = 0;
        for (float &w : m_weights)
            sum += (w = std::exp(w - highest));
        for (float &w : m_weights)
            w /= sum;

        copyRow(m_decoder.front().tokenGates, token, 3 * hidden, m_gates.data());
        addWeightedRows(m_valueGates, length, 3 * hidden, m_weights.data(), m_gates.data());
        for (int layer = 0; layer < m_layers; ++layer) {
            const GruWeights &g = m_decoder[std::size_t(layer)];
            const float *hiddenGates = layer + 1 < m_layers ? m_hiddenGates[std::size_t(layer)].data() : m_topOut.data() + attention;
            const float *gates = m_gates.data();
            if (layer > 0) {
                inputGates = g.inputBias;
                addProductsShared({{g.inputToGates, 3 * hidden, m_state[std::size_t(layer) - 1].data(), inputGates.data()}}, hidden);
                gates = inputGates.data();
            }
            gruCell(gates, hiddenGates, m_state[std::size_t(layer)].data(), nullptr, hidden);
        }

        copyRow(m_tokenLogits, token, m_vocabulary, m_logits.data());
        addProductsShared({{m_stateToLogits, m_vocabulary, m_state.back().data(), m_logits.data()}}, hidden);
        addWeightedRows(m_valueLogits, length, m_vocabulary, m_weights.data(), m_logits.data());
        token = int(std::max_element(m_logits.begin(), m_logits.end()) - m_logits.begin());
        out.tokens.push_back(token);
        out.weights.insert(out.weights.end(), m_weights.begin(), m_weights.end());
        if (stopAtEos && token == Vocabulary::kEos)
            break;
    }
    return out;
}
