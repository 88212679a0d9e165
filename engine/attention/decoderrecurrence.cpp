#include "engine/attention/decoderrecurrence.h"

#include "engine/attention/bahdanauattention.h"
#include "engine/attention/decoder.h"
#include "engine/attention/seq2seqweights.h"
#include "engine/core/dropoutstream.h"
#include "engine/core/floatdata.h"
#include "engine/fast/grustep.h"
#include "engine/fast/matrixproduct.h"
#include "engine/fast/vectorsum.h"

#include <algorithm>
#include <cstring>

using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

namespace {

// Where the node's inputs are in its flat list: the memory, the start, the embedding's gates, the
// attention's and first layer's weights, then per layer W_hh and b_hh, and above layer 0 W_ih and b_ih.
enum Input { Keys, Values, MaskBias, Start, EmbeddingGates, QueryWeight, ScoreWeight, ContextToGates, FirstLayer };

int64_t layerInput(int64_t layer)
{
    return FirstLayer + (layer == 0 ? 0 : 2 + 4 * (layer - 1));
}

// The sizes every loop reads, from the inputs.
struct DecoderShape {
    explicit DecoderShape(const variable_list &in)
        : rows(in[Keys].size(0))
        , positions(in[Keys].size(1))
        , attention(in[Keys].size(2))
        , hidden(in[Values].size(2))
        , steps(in[EmbeddingGates].size(1))
        , layers(in[Start].size(0))
        , gates(3 * hidden)
        , top(attention + gates)
    {
    }
    int64_t rows, positions, attention, hidden, steps, layers, gates, top;
};

// The rows of one step (or one layer and step) of a time-major buffer, without making a view.
float *at(const torch::Tensor &t, int64_t first, int64_t second = -1)
{
    const int64_t offset = second < 0 ? first * t.stride(0) : first * t.stride(0) + second * t.stride(1);
    return floatData(t) + offset;
}

struct DecoderPass : torch::autograd::Function<DecoderPass> {
    static variable_list forward(AutogradContext *ctx, at::TensorList inputs, double dropout)
    {
        variable_list in;
        for (const torch::Tensor &t : inputs)
            in.push_back(t.detach().contiguous());
        const DecoderShape n(in);
        const int64_t rows = n.rows, h = n.hidden;
        // The products read weights stored (in, out), the layout oneDNN's sgemm multiplies fastest.
        const torch::Tensor topT = torch::cat({in[QueryWeight], in[layerInput(n.layers - 1)]}).t().contiguous();
        const torch::Tensor contextT = in[ContextToGates].t().contiguous();
        std::vector<torch::Tensor> hiddenT, inputT;
        for (int64_t l = 0; l < n.layers; ++l) {
            hiddenT.push_back(in[layerInput(l)].t().contiguous());
            inputT.push_back(l > 0 ? in[layerInput(l) + 2].t().contiguous() : torch::Tensor());
        }
        const torch::Tensor noBias = torch::zeros({n.gates});
        torch::Tensor hidden = torch::empty({n.layers, n.steps + 1, rows, h});
        hidden.select(1, 0).copy_(in[Start]);
        torch::Tensor gates = torch::empty({n.layers, n.steps, rows, n.gates});
        torch::Tensor hiddenN = torch::empty({n.layers, n.steps, rows, h});
        torch::Tensor layerInputs = torch::empty({n.layers, n.steps, rows, h});  // layer 0's unused
        torch::Tensor masks = torch::empty({n.layers, n.steps, rows, h});        // the same
        torch::Tensor contexts = torch::zeros({n.steps, rows, h});
        torch::Tensor weights = torch::empty({n.steps, rows, n.positions});
        torch::Tensor energies = torch::empty({n.steps, rows, n.positions, n.attention});
        torch::Tensor top = torch::empty({rows, n.top}), inputGates = torch::empty({rows, n.gates});
        torch::Tensor hiddenGates = torch::empty({rows, n.gates});
        const float *embeddingGates = floatData(in[EmbeddingGates]), *keys = floatData(in[Keys]);
        const float *values = floatData(in[Values]), *maskBias = floatData(in[MaskBias]), *v = floatData(in[ScoreWeight]);
        const torch::Tensor ones = torch::ones({rows, h});
        for (int64_t t = 0; t < n.steps; ++t) {
            matrixProduct(false, false, int(rows), int(n.top), int(h), 1.0f, at(hidden, n.layers - 1, t), int(h),
                          floatData(topT), int(n.top), 0.0f, floatData(top), int(n.top));
            for (int64_t b = 0; b < rows; ++b)
                additiveAttentionRow(floatData(top) + b * n.top, keys + b * n.positions * n.attention,
                                     values + b * n.positions * h, v, maskBias + b * n.positions,
                                     at(energies, t) + b * n.positions * n.attention, at(weights, t) + b * n.positions,
                                     at(contexts, t) + b * h, n.positions, n.attention, h);
            for (int64_t b = 0; b < rows; ++b)
                std::memcpy(floatData(inputGates) + b * n.gates, embeddingGates + (b * n.steps + t) * n.gates,
                            std::size_t(n.gates) * sizeof(float));
            matrixProduct(false, false, int(rows), int(n.gates), int(h), 1.0f, at(contexts, t), int(h),
                          floatData(contextT), int(n.gates), 1.0f, floatData(inputGates), int(n.gates));
            for (int64_t l = 0; l < n.layers; ++l) {
                const bool topLayer = l == n.layers - 1;
                if (l > 0) {
                    if (dropout > 0)
                        masks[l][t].copy_(dropoutFromStream(ones, dropout, true));
                    else
                        masks[l][t].fill_(1.0f);
                    layerInputs[l][t].copy_(hidden[l - 1][t + 1] * masks[l][t]);
                    matrixProduct(false, false, int(rows), int(n.gates), int(h), 1.0f, at(layerInputs, l, t), int(h),
                                  floatData(inputT[std::size_t(l)]), int(n.gates), 0.0f, floatData(inputGates), int(n.gates));
                }
                if (!topLayer)
                    matrixProduct(false, false, int(rows), int(n.gates), int(h), 1.0f, at(hidden, l, t), int(h),
                                  floatData(hiddenT[std::size_t(l)]), int(n.gates), 0.0f, floatData(hiddenGates),
                                  int(n.gates));
                const float *hg = topLayer ? floatData(top) + n.attention : floatData(hiddenGates);
                const int64_t hgStride = topLayer ? n.top : n.gates;
                const float *inputBias = l > 0 ? floatData(in[layerInput(l) + 3]) : floatData(noBias);
                const float *hiddenBias = floatData(in[layerInput(l) + 1]);
                for (int64_t b = 0; b < rows; ++b)
                    gruCellAddingBiases(floatData(inputGates) + b * n.gates, inputBias, hg + b * hgStride, hiddenBias,
                                        at(hidden, l, t) + b * h, at(hidden, l, t + 1) + b * h,
                                        at(gates, l, t) + b * n.gates, at(hiddenN, l, t) + b * h, h);
            }
        }
        ctx->save_for_backward(in);
        ctx->saved_data["hidden"] = hidden;
        ctx->saved_data["gates"] = gates;
        ctx->saved_data["hiddenN"] = hiddenN;
        ctx->saved_data["layerInputs"] = layerInputs;
        ctx->saved_data["masks"] = masks;
        ctx->saved_data["contexts"] = contexts;
        ctx->saved_data["weights"] = weights;
        ctx->saved_data["energies"] = energies;
        return {hidden[n.layers - 1].narrow(0, 1, n.steps).transpose(0, 1).contiguous(),
                contexts.transpose(0, 1).contiguous()};
    }

    static variable_list backward(AutogradContext *ctx, variable_list gradOutputs)
    {
        const variable_list in = ctx->get_saved_variables();
        const DecoderShape n(in);
        const int64_t rows = n.rows, h = n.hidden, stepRows = n.steps * rows;
        const torch::Tensor hidden = ctx->saved_data["hidden"].toTensor(), gates = ctx->saved_data["gates"].toTensor();
        const torch::Tensor hiddenN = ctx->saved_data["hiddenN"].toTensor();
        const torch::Tensor layerInputs = ctx->saved_data["layerInputs"].toTensor();
        const torch::Tensor masks = ctx->saved_data["masks"].toTensor();
        const torch::Tensor contexts = ctx->saved_data["contexts"].toTensor();
        const torch::Tensor weights = ctx->saved_data["weights"].toTensor();
        const torch::Tensor energies = ctx->saved_data["energies"].toTensor();
        const auto given = [&](std::size_t i) {
            return gradOutputs[i].defined() ? gradOutputs[i].contiguous() : torch::zeros({rows, n.steps, h});
        };
        const torch::Tensor dOutputs = given(0), dContextsIn = given(1);
        const torch::Tensor topWeight = torch::cat({in[QueryWeight], in[layerInput(n.layers - 1)]});
        const torch::Tensor contextWeight = in[ContextToGates];

        std::vector<torch::Tensor> dState, dHiddenGates, dInputGates, inputSums, hiddenSums;
        for (int64_t l = 0; l < n.layers; ++l) {
            dState.push_back(torch::zeros({rows, h}));
            dHiddenGates.push_back(l < n.layers - 1 ? torch::empty({n.steps, rows, n.gates}) : torch::Tensor());
            dInputGates.push_back(torch::empty({n.steps, rows, n.gates}));
            inputSums.push_back(torch::zeros({n.gates}));
            hiddenSums.push_back(torch::zeros({n.gates}));
        }
        torch::Tensor dTop = torch::empty({n.steps, rows, n.top});
        torch::Tensor dKeys = torch::zeros({rows, n.positions, n.attention});
        torch::Tensor dValues = torch::zeros({rows, n.positions, h});
        torch::Tensor dV = torch::zeros({n.attention});
        torch::Tensor dContext = torch::empty({rows, h}), dPrevious = torch::empty({rows, h});
        torch::Tensor dLayerInput = torch::empty({rows, h});
        std::vector<float> scratch(static_cast<std::size_t>(n.positions));
        const float *values = floatData(in[Values]), *v = floatData(in[ScoreWeight]);
        for (int64_t t = n.steps - 1; t >= 0; --t) {
            float *dTopState = floatData(dState.back());
            for (int64_t b = 0; b < rows; ++b) {
                addInPlace(dTopState + b * h, floatData(dOutputs) + (b * n.steps + t) * h, h);
                std::memcpy(floatData(dContext) + b * h, floatData(dContextsIn) + (b * n.steps + t) * h,
                            std::size_t(h) * sizeof(float));
            }
            for (int64_t l = n.layers - 1; l >= 0; --l) {
                const std::size_t ll = std::size_t(l);
                const bool topLayer = l == n.layers - 1;
                float *dhg = topLayer ? at(dTop, t) + n.attention : at(dHiddenGates[ll], t);
                const int64_t dhgStride = topLayer ? n.top : n.gates;
                float *dig = at(dInputGates[ll], t);
                for (int64_t b = 0; b < rows; ++b)
                    gruCellBackwardSumming(at(gates, l, t) + b * n.gates, at(hiddenN, l, t) + b * h,
                                           at(hidden, l, t) + b * h, floatData(dState[ll]) + b * h, dig + b * n.gates,
                                           floatData(inputSums[ll]), dhg + b * dhgStride, floatData(hiddenSums[ll]),
                                           floatData(dPrevious) + b * h, h);
                if (!topLayer)
                    matrixProduct(false, false, int(rows), int(h), int(n.gates), 1.0f, dhg, int(n.gates),
                                  floatData(in[layerInput(l)]), int(h), 1.0f, floatData(dPrevious), int(h));
                if (l > 0) {
                    matrixProduct(false, false, int(rows), int(h), int(n.gates), 1.0f, dig, int(n.gates),
                                  floatData(in[layerInput(l) + 2]), int(h), 0.0f, floatData(dLayerInput), int(h));
                    dState[ll - 1].addcmul_(dLayerInput, masks[l][t]);
                } else {
                    matrixProduct(false, false, int(rows), int(h), int(n.gates), 1.0f, dig, int(n.gates),
                                  floatData(contextWeight), int(h), 1.0f, floatData(dContext), int(h));
                }
                dState[ll].copy_(dPrevious);
            }
            for (int64_t b = 0; b < rows; ++b) {
                float *dQuery = at(dTop, t) + b * n.top;
                std::fill(dQuery, dQuery + n.attention, 0.0f);
                additiveAttentionRowBackward(at(weights, t) + b * n.positions,
                                             at(energies, t) + b * n.positions * n.attention,
                                             values + b * n.positions * h, v, floatData(dContext) + b * h, nullptr,
                                             floatData(dValues) + b * n.positions * h,
                                             floatData(dKeys) + b * n.positions * n.attention, dQuery, floatData(dV),
                                             /*accumulate=*/true, scratch.data(), n.positions, n.attention, h);
            }
            // W_s and the top layer's W_hh both read its state before the step.
            matrixProduct(false, false, int(rows), int(h), int(n.top), 1.0f, at(dTop, t), int(n.top),
                          floatData(topWeight), int(h), 1.0f, floatData(dState.back()), int(h));
        }

        // Each weight's gradient as one multiply over every step's rows.
        const auto product = [&](const float *dGates, int64_t width, const float *read) {
            torch::Tensor g = torch::empty({width, h});
            matrixProduct(true, false, int(width), int(h), int(stepRows), 1.0f, dGates, int(width), read, int(h), 0.0f,
                          floatData(g), int(h));
            return g;
        };
        variable_list grads(in.size() + 1);
        grads[Keys] = dKeys;
        grads[Values] = dValues;
        grads[Start] = torch::stack(dState);
        grads[EmbeddingGates] = dInputGates.front().transpose(0, 1).contiguous();
        const torch::Tensor dTopWeight = product(floatData(dTop), n.top, at(hidden, n.layers - 1));
        grads[QueryWeight] = dTopWeight.narrow(0, 0, n.attention);
        grads[ScoreWeight] = dV.view({1, n.attention});
        grads[ContextToGates] = product(floatData(dInputGates.front()), n.gates, floatData(contexts));
        for (int64_t l = 0; l < n.layers; ++l) {
            const std::size_t ll = std::size_t(l);
            const int64_t first = layerInput(l);
            grads[std::size_t(first)] = l == n.layers - 1 ? dTopWeight.narrow(0, n.attention, n.gates)
                                                           : product(floatData(dHiddenGates[ll]), n.gates, at(hidden, l));
            grads[std::size_t(first) + 1] = hiddenSums[ll];
            if (l > 0) {
                grads[std::size_t(first) + 2] = product(floatData(dInputGates[ll]), n.gates, at(layerInputs, l));
                grads[std::size_t(first) + 3] = inputSums[ll];
            }
        }
        return grads;
    }
};

}

bool decoderRecurrenceSupports(const DecoderImpl &decoder)
{
    return decoder.kind() == AttentionKind::Bahdanau && decoder.cell() == RecurrentCell::Gru && !decoder.hasPointer();
}

std::pair<torch::Tensor, torch::Tensor> decoderRecurrence(DecoderImpl &decoder, const torch::Tensor &keys,
                                                          const torch::Tensor &values, const torch::Tensor &maskBias,
                                                          const torch::Tensor &start,
                                                          const torch::Tensor &embeddingGates)
{
    const DecoderWeights w = weightsOf(decoder);
    variable_list inputs{keys, values, maskBias, start, embeddingGates, w.queryWeight, w.scoreWeight, w.contextToGates};
    for (std::size_t l = 0; l < w.layers.size(); ++l) {
        inputs.push_back(w.layers[l].hiddenWeight);
        inputs.push_back(w.layers[l].hiddenBias);
        if (l > 0) {
            inputs.push_back(w.layers[l].inputWeight);
            inputs.push_back(w.layers[l].inputBias);
        }
    }
    const variable_list out = DecoderPass::apply(at::TensorList(inputs), decoder.is_training() ? decoder.layerDropout() : 0.0);
    return {out[0], out[1]};
}
