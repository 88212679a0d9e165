#include "engine/attention/encoderrecurrence.h"

#include "engine/attention/encoder.h"
#include "engine/attention/seq2seqweights.h"
#include "engine/core/dropoutstream.h"
#include "engine/core/floatdata.h"
#include "engine/fast/matrixproduct.h"
#include "engine/fast/recurrentsweep.h"
#include "engine/fast/vectorsum.h"

#include <algorithm>
#include <cstring>
#include <numeric>

using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

namespace {

constexpr std::size_t kFirstWeight = 2;  // the node's inputs: embedded, lengths, then 4 per layer and direction

// The batch's rows in the order of their lengths, longest first, as RecurrentSweep reads them;
// buffers are time-major in that order: row r of step t at [t * rows + r].
struct SortedRows {
    SortedRows(const torch::Tensor &lengthsIn, int64_t width)
    {
        const torch::Tensor lengths = lengthsIn.to(torch::kLong).contiguous();
        const int64_t rows = lengths.size(0);
        order.resize(std::size_t(rows));
        std::iota(order.begin(), order.end(), 0);
        const int64_t *given = lengths.data_ptr<int64_t>();
        std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return given[a] > given[b]; });
        for (int row : order)
            length.push_back(int(std::clamp<int64_t>(given[row], 0, width)));
        for (int64_t t = 0; t < width; ++t) {
            int n = 0;
            while (n < int(rows) && length[std::size_t(n)] > t)
                ++n;
            active.push_back(n);
        }
    }
    // Calls visit(r, step, position) for every real token of every sorted row r: direction
    // `direction` reads `position` at its step `step` (the backward direction from the last).
    template <typename Visit>
    void forEachRead(int direction, Visit visit) const
    {
        for (int r = 0; r < int(length.size()); ++r) {
            const int steps = length[std::size_t(r)];
            for (int step = 0; step < steps; ++step)
                visit(r, step, direction == 0 ? step : steps - 1 - step);
        }
    }

    std::vector<int> order;   // sorted row -> the batch's row
    std::vector<int> length;  // per sorted row
    std::vector<int> active;  // per step, the rows still reading
};

// What the backward pass reads of the forward one.
struct EncoderRecord : torch::CustomClassHolder {
    EncoderRecord(const torch::Tensor &lengths, int64_t width) : rows(lengths, width) {}
    SortedRows rows;
    std::vector<std::vector<float>> inputs;    // per layer and direction: what its gates read, in its step order
    std::vector<RecurrentActivations> passes;  // the same order
    std::vector<std::vector<float>> masks;     // per layer: the dropout scale of its input (empty: none)
};

// Copies between a (B, S, W) tensor and a time-major buffer of the rows in sorted order.
void toSorted(const float *batchMajor, const SortedRows &s, int64_t width, int64_t values, float *timeMajor)
{
    const int64_t rows = int64_t(s.order.size());
    for (int64_t r = 0; r < rows; ++r)
        for (int64_t t = 0; t < width; ++t)
            std::memcpy(timeMajor + (t * rows + r) * values, batchMajor + (s.order[std::size_t(r)] * width + t) * values,
                        std::size_t(values) * sizeof(float));
}

void fromSorted(const float *timeMajor, const SortedRows &s, int64_t width, int64_t values, float *batchMajor)
{
    const int64_t rows = int64_t(s.order.size());
    for (int64_t r = 0; r < rows; ++r)
        for (int64_t t = 0; t < width; ++t)
            std::memcpy(batchMajor + (s.order[std::size_t(r)] * width + t) * values, timeMajor + (t * rows + r) * values,
                        std::size_t(values) * sizeof(float));
}

struct EncoderShape {
    EncoderShape(const variable_list &in, int64_t layerCount, int64_t directionCount)
        : rows(in[0].size(0))
        , width(in[0].size(1))
        , embed(in[0].size(2))
        , hidden(in[kFirstWeight + 1].size(1))
        , gates(in[kFirstWeight + 1].size(0))
        , layers(layerCount)
        , directions(directionCount)
    {
    }
    int64_t inputSize(int64_t layer) const { return layer == 0 ? embed : directions * hidden; }
    int64_t rows, width, embed, hidden, gates, layers, directions;
};

const torch::Tensor &weight(const variable_list &in, int64_t pass, int which)
{
    return in[kFirstWeight + std::size_t(4 * pass + which)];  // W_ih, W_hh, b_ih, b_hh
}

RecurrentSweep::Weights sweepWeights(const variable_list &in, int64_t pass)
{
    return {floatData(weight(in, pass, 1)), floatData(weight(in, pass, 2)), floatData(weight(in, pass, 3))};
}

struct EncoderPass : torch::autograd::Function<EncoderPass> {
    // Without `record` (no gradients asked), nothing is kept for backward: a large evaluation
    // batch would otherwise hold every layer's activations at once.
    static variable_list forward(AutogradContext *ctx, at::TensorList inputs, int64_t kindIn, int64_t layers,
                                 int64_t directions, double dropout, bool record)
    {
        variable_list in;
        for (const torch::Tensor &t : inputs)
            in.push_back(t.detach().contiguous());
        const RecurrentCell kind = RecurrentCell(kindIn);
        const EncoderShape n(in, layers, directions);
        const int64_t rows = n.rows, h = n.hidden, g = n.gates, both = n.directions * h, all = n.width * rows;
        auto rec = c10::make_intrusive<EncoderRecord>(in[1], n.width);
        const SortedRows &s = rec->rows;
        std::vector<float> layerInput(std::size_t(all * n.embed)), layerOutput(std::size_t(all * both));
        toSorted(floatData(in[0]), s, n.width, n.embed, layerInput.data());
        torch::Tensor finals = torch::empty({layers * directions, rows, h});
        torch::Tensor finalCells = torch::zeros({layers * directions, rows, h});
        std::vector<float> inputGates(std::size_t(all * g));
        RecurrentSweep sweep(kind, int(h), int(rows));
        for (int64_t l = 0; l < layers; ++l) {
            const int64_t width = n.inputSize(l);
            std::fill(layerOutput.begin(), layerOutput.end(), 0.0f);
            for (int d = 0; d < int(directions); ++d) {
                const int64_t pass = l * directions + d;
                // What this direction reads, in its own step order; zeros past a row's end.
                std::vector<float> read(layerInput.size(), 0.0f);
                s.forEachRead(d, [&](int r, int step, int position) {
                    std::memcpy(read.data() + (step * rows + r) * width,
                                layerInput.data() + (position * rows + r) * width, std::size_t(width) * sizeof(float));
                });
                float beta = 0.0f;
                if (kind != RecurrentCell::Gru) {  // the RNN and LSTM read both biases with the input
                    std::vector<float> bias(static_cast<std::size_t>(g));
                    std::memcpy(bias.data(), floatData(weight(in, pass, 2)), std::size_t(g) * sizeof(float));
                    addInPlace(bias.data(), floatData(weight(in, pass, 3)), g);
                    for (int64_t row = 0; row < all; ++row)
                        std::memcpy(inputGates.data() + row * g, bias.data(), std::size_t(g) * sizeof(float));
                    beta = 1.0f;
                }
                matrixProduct(false, true, int(all), int(g), int(width), 1.0f, read.data(), int(width),
                              floatData(weight(in, pass, 0)), int(width), beta, inputGates.data(), int(g));
                RecurrentActivations a;
                a.allocate(kind, rows, n.width, h);
                std::fill(a.hidden.begin(), a.hidden.begin() + rows * h, 0.0f);
                if (!a.cell.empty())
                    std::fill(a.cell.begin(), a.cell.begin() + rows * h, 0.0f);
                RecurrentSweep::Inputs sweepInputs;
                sweepInputs.gates = inputGates.data();
                sweep.forward(sweepWeights(in, pass), sweepInputs, s.active, int(n.width), a);
                s.forEachRead(d, [&](int r, int step, int position) {
                    std::memcpy(layerOutput.data() + (position * rows + r) * both + d * h,
                                a.hidden.data() + ((step + 1) * rows + r) * h, std::size_t(h) * sizeof(float));
                });
                for (int r = 0; r < int(rows); ++r) {
                    const int length = s.length[std::size_t(r)];
                    const int64_t row = s.order[std::size_t(r)];
                    std::memcpy(floatData(finals[pass][row]), a.hidden.data() + (length * rows + r) * h,
                                std::size_t(h) * sizeof(float));
                    if (!a.cell.empty())
                        std::memcpy(floatData(finalCells[pass][row]), a.cell.data() + (length * rows + r) * h,
                                    std::size_t(h) * sizeof(float));
                }
                if (record) {
                    rec->inputs.push_back(std::move(read));
                    rec->passes.push_back(std::move(a));
                }
            }
            std::vector<float> mask;
            if (l + 1 < layers && dropout > 0) {
                // Drawn over (B, S, H) as the module's dropout would, then put in the sorted order.
                const torch::Tensor scale = dropoutFromStream(torch::ones({rows, n.width, both}), dropout, true);
                mask.resize(std::size_t(all * both));
                toSorted(floatData(scale), s, n.width, both, mask.data());
                for (std::size_t k = 0; k < mask.size(); ++k)
                    layerOutput[k] *= mask[k];
            }
            rec->masks.push_back(std::move(mask));
            layerInput = layerOutput;
        }
        torch::Tensor outputs = torch::empty({rows, n.width, both});
        fromSorted(layerInput.data(), s, n.width, both, floatData(outputs));
        ctx->save_for_backward(in);
        ctx->saved_data["recorded"] = at::IValue::make_capsule(rec);
        ctx->saved_data["kind"] = kindIn;
        ctx->saved_data["layers"] = layers;
        ctx->saved_data["directions"] = directions;
        return {outputs, finals, finalCells};
    }

    static variable_list backward(AutogradContext *ctx, variable_list gradOutputs)
    {
        const variable_list in = ctx->get_saved_variables();
        const auto rec = c10::static_intrusive_pointer_cast<EncoderRecord>(ctx->saved_data["recorded"].toCapsule());
        const RecurrentCell kind = RecurrentCell(ctx->saved_data["kind"].toInt());
        const EncoderShape n(in, ctx->saved_data["layers"].toInt(), ctx->saved_data["directions"].toInt());
        const SortedRows &s = rec->rows;
        const int64_t rows = n.rows, h = n.hidden, g = n.gates, both = n.directions * h, all = n.width * rows;
        std::vector<float> dLayerOutput(std::size_t(all * both), 0.0f);
        if (gradOutputs[0].defined())
            toSorted(floatData(gradOutputs[0].contiguous()), s, n.width, both, dLayerOutput.data());
        const torch::Tensor dFinals = gradOutputs[1].defined() ? gradOutputs[1].contiguous() : torch::Tensor();
        const torch::Tensor dFinalCells = gradOutputs[2].defined() ? gradOutputs[2].contiguous() : torch::Tensor();
        variable_list grads(in.size() + 5);
        RecurrentSweep sweep(kind, int(h), int(rows));
        std::vector<float> dHidden(std::size_t(all * h)), dInputGates(std::size_t(all * g));
        std::vector<float> dHiddenGates(kind == RecurrentCell::Gru ? std::size_t(all * g) : 0);
        std::vector<float> dCells(kind == RecurrentCell::Lstm ? std::size_t(all * h) : 0);
        for (int64_t l = n.layers - 1; l >= 0; --l) {
            const int64_t width = n.inputSize(l);
            std::vector<float> dLayerInput(std::size_t(all * width), 0.0f), dRead(std::size_t(all * width));
            for (int d = 0; d < int(n.directions); ++d) {
                const int64_t pass = l * n.directions + d;
                const RecurrentActivations &a = rec->passes[std::size_t(pass)];
                std::fill(dHidden.begin(), dHidden.end(), 0.0f);
                std::fill(dCells.begin(), dCells.end(), 0.0f);
                s.forEachRead(d, [&](int r, int step, int position) {
                    std::memcpy(dHidden.data() + (step * rows + r) * h,
                                dLayerOutput.data() + (position * rows + r) * both + d * h, std::size_t(h) * sizeof(float));
                });
                for (int r = 0; r < int(rows); ++r) {
                    const int length = s.length[std::size_t(r)];
                    if (length == 0)
                        continue;
                    const int64_t row = s.order[std::size_t(r)], last = ((length - 1) * rows + r) * h;
                    if (dFinals.defined())
                        addInPlace(dHidden.data() + last, floatData(dFinals[pass][row]), h);
                    if (dFinalCells.defined() && !dCells.empty())
                        std::memcpy(dCells.data() + last, floatData(dFinalCells[pass][row]), std::size_t(h) * sizeof(float));
                }
                torch::Tensor dInputBias = torch::empty({g}), dHiddenBias = torch::empty({g});
                RecurrentSweep::Gradients gradients;
                gradients.dInputGates = dInputGates.data();
                gradients.dHiddenGates = dHiddenGates.empty() ? nullptr : dHiddenGates.data();
                gradients.dInputBias = floatData(dInputBias);
                gradients.dHiddenBias = floatData(dHiddenBias);
                gradients.dCells = dCells.empty() ? nullptr : dCells.data();
                sweep.backward(sweepWeights(in, pass), {}, s.active, int(n.width), a, dHidden.data(), gradients);
                // Each weight's gradient as one multiply over every step's rows.
                const float *dGates = dInputGates.data();
                const float *dRecurrentGates = dHiddenGates.empty() ? dGates : dHiddenGates.data();
                torch::Tensor dInputWeight = torch::empty({g, width}), dHiddenWeight = torch::empty({g, h});
                matrixProduct(true, false, int(g), int(h), int(all), 1.0f, dRecurrentGates, int(g), a.hidden.data(),
                              int(h), 0.0f, floatData(dHiddenWeight), int(h));
                matrixProduct(true, false, int(g), int(width), int(all), 1.0f, dGates, int(g),
                              rec->inputs[std::size_t(pass)].data(), int(width), 0.0f, floatData(dInputWeight), int(width));
                matrixProduct(false, false, int(all), int(width), int(g), 1.0f, dGates, int(g),
                              floatData(weight(in, pass, 0)), int(width), 0.0f, dRead.data(), int(width));
                s.forEachRead(d, [&](int r, int step, int position) {
                    addInPlace(dLayerInput.data() + (position * rows + r) * width, dRead.data() + (step * rows + r) * width,
                               width);
                });
                const std::size_t first = kFirstWeight + std::size_t(4 * pass);
                grads[first] = dInputWeight;
                grads[first + 1] = dHiddenWeight;
                grads[first + 2] = dInputBias;
                grads[first + 3] = dHiddenBias;
            }
            if (l > 0) {
                const std::vector<float> &mask = rec->masks[std::size_t(l - 1)];  // empty: no dropout
                for (std::size_t k = 0; k < mask.size(); ++k)
                    dLayerInput[k] *= mask[k];
                dLayerOutput = std::move(dLayerInput);
            } else {
                torch::Tensor dEmbedded = torch::empty({rows, n.width, n.embed});
                fromSorted(dLayerInput.data(), s, n.width, n.embed, floatData(dEmbedded));
                grads[0] = dEmbedded;
            }
        }
        return grads;
    }
};

}

EncoderLayersOutput encoderRecurrence(EncoderImpl &encoder, const torch::Tensor &embedded, const torch::Tensor &lengths)
{
    variable_list inputs{embedded, lengths};
    for (const RecurrentLayerWeights &w : weightsOf(encoder).layers) {
        inputs.push_back(w.inputWeight);
        inputs.push_back(w.hiddenWeight);
        inputs.push_back(w.inputBias);
        inputs.push_back(w.hiddenBias);
    }
    const bool record = torch::GradMode::is_enabled()
                        && std::any_of(inputs.begin(), inputs.end(), [](const torch::Tensor &t) { return t.requires_grad(); });
    const variable_list out =
        EncoderPass::apply(at::TensorList(inputs), int64_t(encoder.cell()), int64_t(encoder.layers()),
                           int64_t(encoder.directions()), encoder.is_training() ? encoder.layerDropout() : 0.0, record);
    EncoderLayersOutput result{out[0], out[1].unbind(0), {}};
    if (encoder.cell() == RecurrentCell::Lstm)
        result.finalCells = out[2].unbind(0);
    return result;
}
