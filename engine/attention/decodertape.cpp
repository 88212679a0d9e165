#include "engine/attention/decodertape.h"

#include "engine/attention/bahdanauattention.h"
#include "engine/attention/decoder.h"
#include "engine/attention/encoder.h"
#include "engine/attention/seq2seqnet.h"
#include "engine/attention/seq2seqweights.h"
#include "engine/core/floatdata.h"
#include "engine/core/vocabulary.h"
#include "engine/fast/grustep.h"
#include "engine/fast/matrixproduct.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace {

torch::Tensor plain(const torch::Tensor &t)
{
    return t.detach().to(torch::kFloat).contiguous();
}

// `rows` copies of `row` (width floats).
torch::Tensor rowsOf(const torch::Tensor &row, int64_t rows)
{
    return row.reshape({1, -1}).repeat({rows, 1});
}

// The network's weights as the pass multiplies them, row-major.
struct Weights {
    torch::Tensor bridge, bridgeBias;      // (H, H), (H); undefined without the bridge
    torch::Tensor keys;                    // W_h (A, H)
    torch::Tensor top, topBias;            // [W_s; W_hh of the top layer] (A + 3H, H), [0; b_hh] (A + 3H)
    torch::Tensor score;                   // v (A)
    torch::Tensor contextToGates;          // (3H, H): layer 0's W_ih, the context's columns
    torch::Tensor embeddingToGates;        // (3H, E): the embedding's
    std::vector<torch::Tensor> inputWeight, hiddenWeight, inputBias, hiddenBias;  // per layer
    torch::Tensor output, outputBias;      // (V, 2H + E): [state | context | embedding], (V)
    torch::Tensor embedding;               // (V, E)
};

Weights weightsFor(Seq2SeqNetImpl &net)
{
    const EncoderWeights e = weightsOf(*net.encoder);
    const DecoderWeights d = weightsOf(*net.decoder);
    Weights w;
    if (e.bridgeWeight.defined()) {
        w.bridge = plain(e.bridgeWeight);
        w.bridgeBias = plain(e.bridgeBias);
    }
    w.keys = plain(d.keysWeight);
    const RecurrentLayerWeights &top = d.layers.back();
    w.top = plain(torch::cat({d.queryWeight, top.hiddenWeight}));
    w.topBias = plain(torch::cat({torch::zeros({d.queryWeight.size(0)}), top.hiddenBias.detach()}));
    w.score = plain(d.scoreWeight).view({-1});
    w.contextToGates = plain(d.contextToGates);
    w.embeddingToGates = plain(d.embeddingToGates);
    for (const RecurrentLayerWeights &layer : d.layers) {
        w.inputWeight.push_back(plain(layer.inputWeight));
        w.hiddenWeight.push_back(plain(layer.hiddenWeight));
        w.inputBias.push_back(plain(layer.inputBias));
        w.hiddenBias.push_back(plain(layer.hiddenBias));
    }
    w.output = plain(d.outputWeight);
    w.outputBias = plain(d.outputBias);
    w.embedding = plain(d.embedding);
    return w;
}

// What the backward sweep reads of one step, for the P points.
struct Step {
    std::vector<torch::Tensor> previous, gates, hiddenGates;  // per layer: (P, H), (P, 3H), (P, 3H) with b_hh
    torch::Tensor weights, energy, context;                   // (P, S), (P, S, A), (P, H)
    torch::Tensor probabilities;                              // (P, V) at a step asked
};

// The gradients the sweep carries, for rows j·P + p (cotangent j, point p).
struct Carried {
    std::vector<torch::Tensor> state;  // per layer (rows, H): w.r.t. the state after the step in hand
    torch::Tensor values, keys;        // (rows, S, H), (rows, S, A), summed over the steps
    torch::Tensor context, top;        // (rows, H), (rows, A + 3H): the step's context; its query | top hidden gates
    torch::Tensor inputGates, hiddenGates, previous;  // scratch: (rows, 3H) twice, (rows, H)
};

// The decoder's pass over the points, run forwards on construction and kept for sweep().
class RecordedDecoder
{
public:
    RecordedDecoder(Seq2SeqNetImpl &net, const torch::Tensor &outputs, const torch::Tensor &finals,
                    const torch::Tensor &target, const std::vector<int> &steps)
        : m_w(weightsFor(net))
        , m_values(plain(outputs))
        , m_target(target)
        , m_points(m_values.size(0))
        , m_width(m_values.size(1))
        , m_hidden(m_values.size(2))
        , m_gateWidth(3 * m_hidden)
        , m_attention(m_w.keys.size(0))
        , m_embed(m_w.embedding.size(1))
        , m_vocabulary(m_w.embedding.size(0))
        , m_layers(int64_t(m_w.hiddenWeight.size()))
        , m_topWidth(m_attention + m_gateWidth)
        , m_directions(net.encoder->directions())
    {
        // Keys W_h h_i for every point and position.
        m_keys = torch::empty({m_points, m_width, m_attention});
        matrixProduct(false, true, int(m_points * m_width), int(m_attention), int(m_hidden), 1.0f, floatData(m_values),
                      int(m_hidden), floatData(m_w.keys), int(m_hidden), 0.0f, floatData(m_keys), int(m_attention));
        startFromBridge(finals);
        const int lastStep = steps.back();
        std::vector<bool> asked(static_cast<std::size_t>(lastStep + 1), false);
        for (int t : steps)
            asked[std::size_t(t)] = true;
        m_logProbs = torch::zeros({lastStep + 1, m_points, m_vocabulary});
        std::vector<torch::Tensor> state = m_start;
        for (int t = 0; t <= lastStep; ++t) {
            Step step;
            const float *embedding = floatData(m_w.embedding) + tokenAt(t) * m_embed;
            torch::Tensor top = rowsOf(m_w.topBias, m_points);
            matrixProduct(false, true, int(m_points), int(m_topWidth), int(m_hidden), 1.0f, floatData(state.back()),
                          int(m_hidden), floatData(m_w.top), int(m_hidden), 1.0f, floatData(top), int(m_topWidth));
            attend(step, top);
            advance(step, top, embedding, state);
            if (asked[std::size_t(t)])
                predict(step, t, embedding, state.back());
            m_steps.push_back(std::move(step));
        }
    }

    // Cotangent j belongs to the j-th latest step asked, so the cotangents still going back at
    // step s are the first n_s: a step's rows join the sweep at that step.
    DecoderTapeGradients sweep(const std::vector<int> &steps, const std::vector<int64_t> &contrast) const
    {
        const int64_t count = int64_t(steps.size()), rows = count * m_points;
        const std::vector<int> stepOf(steps.rbegin(), steps.rend());
        const std::vector<int64_t> contrastOf(contrast.rbegin(), contrast.rend());
        Carried d;
        for (int64_t l = 0; l < m_layers; ++l)
            d.state.push_back(torch::zeros({rows, m_hidden}));
        d.values = torch::zeros({rows, m_width, m_hidden});
        d.keys = torch::zeros({rows, m_width, m_attention});
        d.context = torch::empty({rows, m_hidden});
        d.top = torch::empty({rows, m_topWidth});
        d.inputGates = torch::empty({rows, m_gateWidth});
        d.hiddenGates = torch::empty({rows, m_gateWidth});
        d.previous = torch::empty({rows, m_hidden});
        torch::Tensor values = torch::empty({count, m_points});
        for (int s = steps.back(); s >= 0; --s) {
            int64_t active = 0;
            while (active < count && stepOf[std::size_t(active)] >= s)
                ++active;
            d.context.zero_();
            if (stepOf[std::size_t(active - 1)] == s)
                values[count - 1 - (active - 1)].copy_(predictBack(s, active - 1, contrastOf[std::size_t(active - 1)], d));
            const Step &step = m_steps[std::size_t(s)];
            layersBack(step, active * m_points, d);
            attendBack(step, active * m_points, d);
            // [W_s; W_hh] read the top layer's state before the step.
            matrixProduct(false, false, int(active * m_points), int(m_hidden), int(m_topWidth), 1.0f, floatData(d.top),
                          int(m_topWidth), floatData(m_w.top), int(m_hidden), 1.0f, floatData(d.state.back()), int(m_hidden));
        }
        // The keys' gradients reach the values through W_h.
        matrixProduct(false, false, int(rows * m_width), int(m_hidden), int(m_attention), 1.0f, floatData(d.keys),
                      int(m_attention), floatData(m_w.keys), int(m_hidden), 1.0f, floatData(d.values), int(m_hidden));
        return {values, d.values.view({count, m_points, m_width, m_hidden}).flip({0}),
                bridgeBack(d.state, count).flip({0})};
    }

private:
    int64_t tokenAt(int64_t t) const
    {
        const int64_t id = m_target[0][t].item<int64_t>();
        return id < m_vocabulary ? id : int64_t(Vocabulary::kUnk);
    }

    // The decoder's start, tanh(bridge([forward | backward final state])) per layer, or zeros.
    void startFromBridge(const torch::Tensor &finals)
    {
        for (int64_t l = 0; l < m_layers; ++l) {
            if (!m_w.bridge.defined()) {
                m_start.push_back(torch::zeros({m_points, m_hidden}));
                continue;
            }
            const torch::Tensor both =
                plain(finals.narrow(0, l * m_directions, m_directions).permute({1, 0, 2}).reshape({m_points, m_hidden}));
            torch::Tensor s = rowsOf(m_w.bridgeBias, m_points);
            matrixProduct(false, true, int(m_points), int(m_hidden), int(m_hidden), 1.0f, floatData(both), int(m_hidden),
                          floatData(m_w.bridge), int(m_hidden), 1.0f, floatData(s), int(m_hidden));
            m_start.push_back(s.tanh_());
        }
    }

    // The final states' gradients (K, layers × directions, P, h) from those of the start.
    torch::Tensor bridgeBack(const std::vector<torch::Tensor> &dStart, int64_t count) const
    {
        const int64_t half = m_hidden / m_directions, rows = count * m_points;
        torch::Tensor dFinals = torch::zeros({count, m_layers * m_directions, m_points, half});
        if (!m_w.bridge.defined())
            return dFinals;
        for (int64_t l = 0; l < m_layers; ++l) {
            const torch::Tensor s = m_start[std::size_t(l)].repeat({count, 1});
            const torch::Tensor dPre = dStart[std::size_t(l)] * (1 - s * s);
            torch::Tensor dBoth = torch::empty({rows, m_hidden});
            matrixProduct(false, false, int(rows), int(m_hidden), int(m_hidden), 1.0f, floatData(dPre), int(m_hidden),
                          floatData(m_w.bridge), int(m_hidden), 0.0f, floatData(dBoth), int(m_hidden));
            dFinals.narrow(1, l * m_directions, m_directions)
                .copy_(dBoth.view({count, m_points, m_directions, half}).permute({0, 2, 1, 3}));
        }
        return dFinals;
    }

    // Bahdanau: e_i = v . tanh(W_s s + W_h h_i), a = softmax(e), c = sum_i a_i h_i; the query is
    // the first A columns of `top`.
    void attend(Step &step, const torch::Tensor &top) const
    {
        step.energy = torch::empty({m_points, m_width, m_attention});
        step.weights = torch::empty({m_points, m_width});
        step.context = torch::zeros({m_points, m_hidden});
        const float *keys = floatData(m_keys), *values = floatData(m_values), *v = floatData(m_w.score), *queries = floatData(top);
        float *energies = floatData(step.energy), *weights = floatData(step.weights), *contexts = floatData(step.context);
        for (int64_t p = 0; p < m_points; ++p)
            additiveAttentionRow(queries + p * m_topWidth, keys + p * m_width * m_attention,
                                 values + p * m_width * m_hidden, v, nullptr, energies + p * m_width * m_attention,
                                 weights + p * m_width, contexts + p * m_hidden, m_width, m_attention, m_hidden);
    }

    // The recurrent layers, layer 0 reading the word and the context; the top layer's hidden
    // gates came with the query (the last 3H columns of `top`).
    void advance(Step &step, const torch::Tensor &top, const float *embedding, std::vector<torch::Tensor> &state) const
    {
        torch::Tensor embeddingGates = m_w.inputBias.front().clone();
        matrixProduct(false, true, 1, int(m_gateWidth), int(m_embed), 1.0f, embedding, int(m_embed),
                      floatData(m_w.embeddingToGates), int(m_embed), 1.0f, floatData(embeddingGates), int(m_gateWidth));
        for (int64_t l = 0; l < m_layers; ++l) {
            const std::size_t ll = std::size_t(l);
            const bool first = l == 0;
            torch::Tensor inputGates = rowsOf(first ? embeddingGates : m_w.inputBias[ll], m_points);
            matrixProduct(false, true, int(m_points), int(m_gateWidth), int(m_hidden), 1.0f,
                          floatData(first ? step.context : state[ll - 1]), int(m_hidden),
                          floatData(first ? m_w.contextToGates : m_w.inputWeight[ll]), int(m_hidden), 1.0f,
                          floatData(inputGates), int(m_gateWidth));
            torch::Tensor hiddenGates;
            if (l == m_layers - 1) {
                hiddenGates = top.narrow(1, m_attention, m_gateWidth).contiguous();
            } else {
                hiddenGates = rowsOf(m_w.hiddenBias[ll], m_points);
                matrixProduct(false, true, int(m_points), int(m_gateWidth), int(m_hidden), 1.0f, floatData(state[ll]),
                              int(m_hidden), floatData(m_w.hiddenWeight[ll]), int(m_hidden), 1.0f, floatData(hiddenGates),
                              int(m_gateWidth));
            }
            torch::Tensor next = state[ll].clone(), gates = torch::empty({m_points, m_gateWidth});
            float *gi = floatData(inputGates), *gh = floatData(hiddenGates), *h = floatData(next), *g = floatData(gates);
            for (int64_t p = 0; p < m_points; ++p)
                gruCell(gi + p * m_gateWidth, gh + p * m_gateWidth, h + p * m_hidden, g + p * m_gateWidth, m_hidden);
            step.previous.push_back(state[ll]);
            step.gates.push_back(gates);
            step.hiddenGates.push_back(hiddenGates);
            state[ll] = next;
        }
    }

    // The output layer on [s_t | c_t | x_t], then log-softmax.
    void predict(Step &step, int t, const float *embedding, const torch::Tensor &output)
    {
        const int64_t outputWidth = m_w.output.size(1);
        torch::Tensor logits = m_w.outputBias.clone().view({1, m_vocabulary});
        matrixProduct(false, true, 1, int(m_vocabulary), int(m_embed), 1.0f, embedding, int(m_embed),
                      floatData(m_w.output) + 2 * m_hidden, int(outputWidth), 1.0f, floatData(logits), int(m_vocabulary));
        logits = logits.repeat({m_points, 1});
        matrixProduct(false, true, int(m_points), int(m_vocabulary), int(m_hidden), 1.0f, floatData(output), int(m_hidden),
                      floatData(m_w.output), int(outputWidth), 1.0f, floatData(logits), int(m_vocabulary));
        matrixProduct(false, true, int(m_points), int(m_vocabulary), int(m_hidden), 1.0f, floatData(step.context),
                      int(m_hidden), floatData(m_w.output) + m_hidden, int(outputWidth), 1.0f, floatData(logits),
                      int(m_vocabulary));
        m_logProbs[t].copy_(torch::log_softmax(logits, 1));
        step.probabilities = m_logProbs[t].exp();
    }

    // Cotangent j's f at step s and its start: d f / d logits = onehot(y) - p, with a contrast
    // onehot(y) - onehot(y'), through the output layer to the top state and the context.
    torch::Tensor predictBack(int s, int64_t j, int64_t other, Carried &d) const
    {
        const Step &step = m_steps[std::size_t(s)];
        const int64_t y = tokenAt(s + 1), outputWidth = m_w.output.size(1);
        torch::Tensor dLogits = other >= 0 ? torch::zeros_like(step.probabilities) : -step.probabilities;
        dLogits.select(1, y).add_(1.0f);
        torch::Tensor f = m_logProbs[s].select(1, y).clone();
        if (other >= 0) {
            dLogits.select(1, other).sub_(1.0f);
            f.sub_(m_logProbs[s].select(1, other));
        }
        matrixProduct(false, false, int(m_points), int(m_hidden), int(m_vocabulary), 1.0f, floatData(dLogits),
                      int(m_vocabulary), floatData(m_w.output), int(outputWidth), 1.0f,
                      floatData(d.state.back()) + j * m_points * m_hidden, int(m_hidden));
        matrixProduct(false, false, int(m_points), int(m_hidden), int(m_vocabulary), 1.0f, floatData(dLogits),
                      int(m_vocabulary), floatData(m_w.output) + m_hidden, int(outputWidth), 0.0f,
                      floatData(d.context) + j * m_points * m_hidden, int(m_hidden));
        return f;
    }

    // Back through the recurrent layers of one step for the first `rows` rows: to the states
    // before it, the context (layer 0's input) and the top layer's hidden gates (into d.top).
    void layersBack(const Step &step, int64_t rows, Carried &d) const
    {
        for (int64_t l = m_layers - 1; l >= 0; --l) {
            const std::size_t ll = std::size_t(l);
            const bool topLayer = l == m_layers - 1;
            float *dHiddenGates = topLayer ? floatData(d.top) + m_attention : floatData(d.hiddenGates);
            const int64_t dHiddenStride = topLayer ? m_topWidth : m_gateWidth;
            const float *gates = floatData(step.gates[ll]), *hiddenGates = floatData(step.hiddenGates[ll]);
            const float *previous = floatData(step.previous[ll]), *dNext = floatData(d.state[ll]);
            float *dInputGates = floatData(d.inputGates), *dPrevious = floatData(d.previous);
            for (int64_t row = 0; row < rows; ++row) {
                const int64_t p = row % m_points;
                gruCellBackward(gates + p * m_gateWidth, hiddenGates + p * m_gateWidth, previous + p * m_hidden,
                                dNext + row * m_hidden, dInputGates + row * m_gateWidth,
                                dHiddenGates + row * dHiddenStride, dPrevious + row * m_hidden, m_hidden);
            }
            if (!topLayer)
                matrixProduct(false, false, int(rows), int(m_hidden), int(m_gateWidth), 1.0f, dHiddenGates,
                              int(m_gateWidth), floatData(m_w.hiddenWeight[ll]), int(m_hidden), 1.0f, dPrevious,
                              int(m_hidden));
            // Layer l's input: the state of the layer below after the step, or for layer 0 the context.
            matrixProduct(false, false, int(rows), int(m_hidden), int(m_gateWidth), 1.0f, dInputGates, int(m_gateWidth),
                          floatData(l > 0 ? m_w.inputWeight[ll] : m_w.contextToGates), int(m_hidden), 1.0f,
                          floatData(l > 0 ? d.state[ll - 1] : d.context), int(m_hidden));
            std::memcpy(floatData(d.state[ll]), dPrevious, std::size_t(rows * m_hidden) * sizeof(float));
        }
    }

    // Back through the attention of one step: to the query (d.top's first A columns), the keys
    // and the values.
    void attendBack(const Step &step, int64_t rows, Carried &d) const
    {
        const float *weights = floatData(step.weights), *energies = floatData(step.energy), *values = floatData(m_values);
        const float *v = floatData(m_w.score), *dContexts = floatData(d.context);
        float *dQueries = floatData(d.top), *dValues = floatData(d.values), *dKeys = floatData(d.keys);
        std::vector<float> scratch(static_cast<std::size_t>(m_width));
        for (int64_t row = 0; row < rows; ++row) {
            const int64_t p = row % m_points;
            float *dQuery = dQueries + row * m_topWidth;
            std::fill(dQuery, dQuery + m_attention, 0.0f);
            additiveAttentionRowBackward(weights + p * m_width, energies + p * m_width * m_attention,
                                         values + p * m_width * m_hidden, v, dContexts + row * m_hidden, nullptr,
                                         dValues + row * m_width * m_hidden, dKeys + row * m_width * m_attention,
                                         dQuery, nullptr, /*accumulate=*/true, scratch.data(), m_width, m_attention,
                                         m_hidden);
        }
    }

    Weights m_w;
    torch::Tensor m_values, m_target, m_keys;  // (P, S, H), (1, T), (P, S, A)
    int64_t m_points, m_width, m_hidden, m_gateWidth, m_attention, m_embed, m_vocabulary, m_layers, m_topWidth;
    int m_directions;
    std::vector<torch::Tensor> m_start;  // per layer (P, H)
    std::vector<Step> m_steps;
    torch::Tensor m_logProbs;  // (steps, P, V), at the steps asked
};

}

bool decoderTapeSupports(const Seq2SeqNetImpl &net)
{
    const DecoderImpl &decoder = *net.decoder;
    return decoder.kind() == AttentionKind::Bahdanau && decoder.cell() == RecurrentCell::Gru && !decoder.hasPointer()
           && net.encoder->cell() == RecurrentCell::Gru && !net.is_training();
}

DecoderTapeGradients decoderTapeGradients(Seq2SeqNetImpl &net, const torch::Tensor &outputs,
                                          const torch::Tensor &finals, const torch::Tensor &target,
                                          const std::vector<int> &steps, const std::vector<int64_t> &contrast)
{
    torch::NoGradGuard noGradients;
    return RecordedDecoder(net, outputs, finals, target, steps).sweep(steps, contrast);
}
