#include "engine/fast/recurrentstep.h"

#include "engine/fast/grustep.h"

torch::Tensor recurrentStep(RecurrentCell kind, const torch::Tensor &inputGates, const torch::Tensor &hiddenGates,
                            const torch::Tensor &hidden, torch::Tensor *cell)
{
    switch (kind) {
    case RecurrentCell::Rnn: return torch::tanh(inputGates + hiddenGates);
    case RecurrentCell::Gru: return gruStep(inputGates, hiddenGates, hidden);
    case RecurrentCell::Lstm: {
        const auto gates = (inputGates + hiddenGates).chunk(4, 1);
        *cell = torch::sigmoid(gates[1]) * *cell + torch::sigmoid(gates[0]) * torch::tanh(gates[2]);
        return torch::sigmoid(gates[3]) * torch::tanh(*cell);
    }
    }
    return {};
}
