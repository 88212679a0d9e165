#include "grustep.h"

torch::Tensor gruStep(const torch::Tensor &inputGates, const torch::Tensor &hiddenGates, const torch::Tensor &hidden)
{
    const int64_t h = hidden.size(1);
    const auto rz = torch::sigmoid(inputGates.narrow(1, 0, 2 * h) + hiddenGates.narrow(1, 0, 2 * h));
    const auto n = torch::tanh(torch::addcmul(inputGates.narrow(1, 2 * h, h), rz.narrow(1, 0, h), hiddenGates.narrow(1, 2 * h, h)));
    return torch::lerp(n, hidden, rz.narrow(1, h, h));
}
