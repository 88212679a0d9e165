#include "engine/attention/encodertape.h"

#include "engine/attention/encoder.h"
#include "engine/fast/grustep.h"
#include "engine/fast/matrixproduct.h"

#include <cstring>
#include <stdexcept>

namespace {

// The position a pass reads at its step `step`.
int64_t positionAt(int64_t step, int direction, int64_t width)
{
    return direction ? width - 1 - step : step;
}

}

bool EncoderTape::supports(const EncoderImpl &encoder)
{
    return encoder.cell() == RecurrentCell::Gru && !encoder.is_training();
}

EncoderTape::EncoderTape(EncoderImpl &encoder, const torch::Tensor &embedded)
    : m_layers(encoder.layers())
    , m_directions(encoder.directions())
    , m_points(embedded.size(0))
    , m_width(embedded.size(1))
    , m_embed(embedded.size(2))
{
    if (!supports(encoder))
        throw std::logic_error("EncoderTape: the encoder is not a GRU in eval mode");
    torch::NoGradGuard noGradients;
    for (const RecurrentLayerWeights &w : weightsOf(encoder).layers)
        m_weights.push_back({w.inputWeight.detach().contiguous(), w.hiddenWeight.detach().contiguous(),
                             w.inputBias.detach().contiguous(), w.hiddenBias.detach().contiguous()});
    m_hidden = m_weights.front().hiddenWeight.size(1);
    const int64_t h = m_hidden, g = 3 * h, points = m_points, width = m_width;
    torch::Tensor input = embedded.detach().to(torch::kFloat).contiguous();  // (P, S, in)
    std::vector<torch::Tensor> finals;
    for (int layer = 0; layer < m_layers; ++layer) {
        const int64_t in = input.size(2);
        torch::Tensor output = torch::empty({points, width, m_directions * h});
        for (int direction = 0; direction < m_directions; ++direction) {
            const RecurrentLayerWeights &w = m_weights[std::size_t(layer * m_directions + direction)];
            // W_ih x + b_ih for every point and position in one multiply: (P·S, 3h).
            torch::Tensor inputGates = w.inputBias.repeat({points * width, 1});
            matrixProduct(false, true, int(points * width), int(g), int(in), 1.0f, input.data_ptr<float>(), int(in),
                          w.inputWeight.data_ptr<float>(), int(in), 1.0f, inputGates.data_ptr<float>(), int(g));
            Pass pass{torch::zeros({width + 1, points, h}), torch::empty({width, points, g}),
                      w.hiddenBias.repeat({width, points, 1})};
            for (int64_t step = 0; step < width; ++step) {
                const int64_t t = positionAt(step, direction, width);
                const float *previous = pass.hidden[step].data_ptr<float>();
                float *next = pass.hidden[step + 1].data_ptr<float>();
                float *hiddenGates = pass.hiddenGates[step].data_ptr<float>();
                float *gates = pass.gates[step].data_ptr<float>();
                matrixProduct(false, true, int(points), int(g), int(h), 1.0f, previous, int(h),
                              w.hiddenWeight.data_ptr<float>(), int(h), 1.0f, hiddenGates, int(g));
                std::memcpy(next, previous, std::size_t(points * h) * sizeof(float));
                for (int64_t p = 0; p < points; ++p)
                    gruCell(inputGates.data_ptr<float>() + (p * width + t) * g, hiddenGates + p * g, next + p * h,
                            gates + p * g, h);
                output.select(1, t).narrow(1, direction * h, h).copy_(pass.hidden[step + 1]);
            }
            finals.push_back(pass.hidden[width]);
            m_passes.push_back(std::move(pass));
        }
        input = output;
    }
    m_outputs = input;
    m_finals = torch::stack(finals);
}

torch::Tensor EncoderTape::backward(const torch::Tensor &dOutputs, const torch::Tensor &dFinals,
                                    const torch::Tensor &pointWeights) const
{
    torch::NoGradGuard noGradients;
    const int64_t k = dOutputs.size(0), points = m_points, width = m_width, h = m_hidden, g = 3 * h;
    const int64_t rows = k * points;  // cotangent c of point p at row c·P + p
    // The gradient of the layer's outputs, (K, P, S, directions·h); then of the layer below's.
    torch::Tensor dOutput = dOutputs.detach().to(torch::kFloat).contiguous();
    std::vector<float> dNext(static_cast<std::size_t>(h)), dHiddenGates(static_cast<std::size_t>(rows * g));
    for (int layer = m_layers - 1; layer >= 0; --layer) {
        const int64_t in = layer ? m_directions * h : m_embed;
        // The embeddings' gradients only go into sums over the points: summed before W_ih, not after.
        const bool summed = layer == 0 && pointWeights.defined();
        const int64_t sums = summed ? pointWeights.size(0) : points;
        torch::Tensor dInput = torch::zeros({k, sums, width, in});
        for (int direction = 0; direction < m_directions; ++direction) {
            const std::size_t index = std::size_t(layer * m_directions + direction);
            const RecurrentLayerWeights &w = m_weights[index];
            const Pass &pass = m_passes[index];
            // The input gates' gradients of every step, (S, K·P, 3h), multiplied by W_ih once at the end.
            torch::Tensor dInputGates = torch::empty({width, rows, g});
            // The state after the last step is the final state: its cotangent starts the recurrence.
            torch::Tensor dRecurrent = dFinals.detach().select(1, int64_t(index)).to(torch::kFloat).contiguous().clone();
            float *recurrent = dRecurrent.data_ptr<float>();
            const float *dOut = dOutput.data_ptr<float>();
            for (int64_t step = width - 1; step >= 0; --step) {
                const int64_t t = positionAt(step, direction, width);
                const float *gates = pass.gates[step].data_ptr<float>();
                const float *hiddenGates = pass.hiddenGates[step].data_ptr<float>();
                const float *previous = pass.hidden[step].data_ptr<float>();
                float *dGates = dInputGates[step].data_ptr<float>();
                for (int64_t r = 0; r < rows; ++r) {
                    const int64_t p = r % points;
                    const float *fromAbove = dOut + (r * width + t) * (m_directions * h) + direction * h;
                    float *d = dNext.data();
                    for (int64_t u = 0; u < h; ++u)
                        d[u] = recurrent[r * h + u] + fromAbove[u];
                    gruCellBackward(gates + p * g, hiddenGates + p * g, previous + p * h, d, dGates + r * g,
                                    dHiddenGates.data() + r * g, recurrent + r * h, h);
                }
                if (step > 0)
                    matrixProduct(false, false, int(rows), int(h), int(g), 1.0f, dHiddenGates.data(), int(g),
                                  w.hiddenWeight.data_ptr<float>(), int(h), 1.0f, recurrent, int(h));
            }
            if (summed)  // (S·K, P, 3h) -> (S·K, R, 3h)
                dInputGates = torch::matmul(pointWeights.to(torch::kFloat), dInputGates.view({width * k, points, g}))
                                  .contiguous();
            // Every step's input gradients at once, (S·K·rows, in), then added at their positions.
            torch::Tensor dStepInputs = torch::empty({width, k * sums, in});
            matrixProduct(false, false, int(width * k * sums), int(in), int(g), 1.0f, dInputGates.data_ptr<float>(),
                          int(g), w.inputWeight.data_ptr<float>(), int(in), 0.0f, dStepInputs.data_ptr<float>(),
                          int(in));
            for (int64_t step = 0; step < width; ++step)
                dInput.select(2, positionAt(step, direction, width)).add_(dStepInputs[step].view({k, sums, in}));
        }
        dOutput = dInput;
    }
    return dOutput;
}
