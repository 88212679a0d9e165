#include "engine/fast/grustep.h"

#include "engine/fast/fastmath.h"
#include "engine/fast/vectorclones.h"

using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

namespace {

// Rows of a (B, width) float tensor whose rows may be strided (a slice of a wider tensor) but
// whose elements within a row are adjacent.
struct Rows {
    explicit Rows(const torch::Tensor &t)
        : tensor(t.stride(1) == 1 ? t : t.contiguous())
        , data(tensor.data_ptr<float>())
        , stride(tensor.stride(0))
    {
    }
    float *operator[](int64_t row) const { return data + row * stride; }

    torch::Tensor tensor;
    float *data;
    int64_t stride;
};

// The whole cell as one autograd node: a loop over the rows forwards, one backwards, in place of
// the dozen tensor ops (and the zero-filled gradients of their slices) autograd would record.
struct GruCell : torch::autograd::Function<GruCell> {
    static torch::Tensor forward(AutogradContext *ctx, const torch::Tensor &inputGates, const torch::Tensor &hiddenGates,
                                 const torch::Tensor &hidden)
    {
        const int64_t batch = hidden.size(0), h = hidden.size(1);
        const Rows gi(inputGates), gh(hiddenGates), previous(hidden);
        auto next = previous.tensor.clone(at::MemoryFormat::Contiguous);
        auto gates = torch::empty({batch, 3 * h}, hidden.options());  // r | z | n, kept for backward
        float *out = next.data_ptr<float>(), *saved = gates.data_ptr<float>();
        for (int64_t b = 0; b < batch; ++b)
            gruCell(gi[b], gh[b], out + b * h, saved + b * 3 * h, h);
        ctx->save_for_backward({gates, hiddenGates, hidden});
        return next;
    }

    static variable_list backward(AutogradContext *ctx, variable_list gradients)
    {
        const auto saved = ctx->get_saved_variables();
        const Rows gates(saved[0]), gh(saved[1]), previous(saved[2]), dNext(gradients[0]);
        const int64_t batch = saved[2].size(0), h = saved[2].size(1);
        auto dInput = torch::empty({batch, 3 * h}, saved[2].options());
        auto dHiddenGates = torch::empty({batch, 3 * h}, saved[2].options());
        auto dHidden = torch::empty({batch, h}, saved[2].options());
        for (int64_t b = 0; b < batch; ++b)
            gruCellBackward(gates[b], gh[b], previous[b], dNext[b], dInput.data_ptr<float>() + b * 3 * h,
                            dHiddenGates.data_ptr<float>() + b * 3 * h, dHidden.data_ptr<float>() + b * h, h);
        return {dInput, dHiddenGates, dHidden};
    }
};

}

// No two of the rows overlap; saying so (__restrict) lets GCC vectorise without checking.
VECTOR_CLONES
void gruCellBackward(const float *__restrict gates, const float *__restrict hiddenGates, const float *__restrict hidden,
                     const float *__restrict dNext, float *__restrict dInputGates, float *__restrict dHiddenGates,
                     float *__restrict dHidden, int64_t n)
{
    for (int64_t k = 0; k < n; ++k) {
        const float r = gates[k], z = gates[n + k], c = gates[2 * n + k];
        const float dc = dNext[k] * (1.0f - z) * (1.0f - c * c);
        const float dz = dNext[k] * (hidden[k] - c) * z * (1.0f - z);
        const float dr = dc * hiddenGates[2 * n + k] * r * (1.0f - r);
        dInputGates[k] = dHiddenGates[k] = dr;
        dInputGates[n + k] = dHiddenGates[n + k] = dz;
        dInputGates[2 * n + k] = dc;
        dHiddenGates[2 * n + k] = dc * r;
        dHidden[k] = dNext[k] * z;
    }
}

VECTOR_CLONES
void gruCell(const float *__restrict inputGates, const float *__restrict hiddenGates, float *__restrict hidden,
             float *__restrict gates, int64_t n)
{
    // Two loops rather than a test per element, which would keep either from vectorising.
    if (!gates) {
        for (int64_t k = 0; k < n; ++k) {
            const float r = sigmoid(inputGates[k] + hiddenGates[k]);
            const float z = sigmoid(inputGates[n + k] + hiddenGates[n + k]);
            const float c = fastTanh(inputGates[2 * n + k] + r * hiddenGates[2 * n + k]);
            hidden[k] = c + z * (hidden[k] - c);
        }
        return;
    }
    for (int64_t k = 0; k < n; ++k) {
        const float r = gates[k] = sigmoid(inputGates[k] + hiddenGates[k]);
        const float z = gates[n + k] = sigmoid(inputGates[n + k] + hiddenGates[n + k]);
        const float c = gates[2 * n + k] = fastTanh(inputGates[2 * n + k] + r * hiddenGates[2 * n + k]);
        hidden[k] = c + z * (hidden[k] - c);
    }
}

torch::Tensor gruStep(const torch::Tensor &inputGates, const torch::Tensor &hiddenGates, const torch::Tensor &hidden)
{
    return GruCell::apply(inputGates, hiddenGates, hidden);
}
