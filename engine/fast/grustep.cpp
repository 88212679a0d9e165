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

// The gradients of one unit k's gate pre-activations (r, z, and n's input and hidden parts) and
// the direct share of the previous state's, from what gruCell stored.
struct GruUnitGradients {
    float r, z, inputN, hiddenN, previous;
};

inline GruUnitGradients gruUnitGradients(const float *gates, const float *hiddenN, const float *hidden,
                                         const float *dNext, int64_t n, int64_t k)
{
    const float r = gates[k], z = gates[n + k], c = gates[2 * n + k];
    const float dc = dNext[k] * (1.0f - z) * (1.0f - c * c);
    const float dz = dNext[k] * (hidden[k] - c) * z * (1.0f - z);
    const float dr = dc * hiddenN[k] * r * (1.0f - r);
    return {dr, dz, dc, dc * r, dNext[k] * z};
}

// No two of the rows overlap; saying so (__restrict) lets GCC vectorise without checking.
VECTOR_CLONES
void gruCellBackward(const float *__restrict gates, const float *__restrict hiddenGates, const float *__restrict hidden,
                     const float *__restrict dNext, float *__restrict dInputGates, float *__restrict dHiddenGates,
                     float *__restrict dHidden, int64_t n)
{
    for (int64_t k = 0; k < n; ++k) {
        const GruUnitGradients d = gruUnitGradients(gates, hiddenGates + 2 * n, hidden, dNext, n, k);
        dInputGates[k] = dHiddenGates[k] = d.r;
        dInputGates[n + k] = dHiddenGates[n + k] = d.z;
        dInputGates[2 * n + k] = d.inputN;
        dHiddenGates[2 * n + k] = d.hiddenN;
        dHidden[k] = d.previous;
    }
}

template <bool kWithInputGates>
inline void gruRowBackwardSumming(const float *__restrict gates, const float *__restrict hiddenN,
                                  const float *__restrict hidden, const float *__restrict dNext,
                                  float *__restrict dInputGates, float *__restrict inputSums,
                                  float *__restrict dHiddenGates, float *__restrict hiddenSums,
                                  float *__restrict dHidden, int64_t n)
{
    // Inlined, the pointers lose __restrict, and ten are too many for GCC to check at run time.
#pragma GCC ivdep
    for (int64_t k = 0; k < n; ++k) {
        const GruUnitGradients d = gruUnitGradients(gates, hiddenN, hidden, dNext, n, k);
        if constexpr (kWithInputGates) {
            dInputGates[k] = d.r;
            dInputGates[n + k] = d.z;
            dInputGates[2 * n + k] = d.inputN;
        }
        dHiddenGates[k] = d.r;
        dHiddenGates[n + k] = d.z;
        dHiddenGates[2 * n + k] = d.hiddenN;
        dHidden[k] = d.previous;
        inputSums[k] += d.r;
        inputSums[n + k] += d.z;
        inputSums[2 * n + k] += d.inputN;
        hiddenSums[k] += d.r;
        hiddenSums[n + k] += d.z;
        hiddenSums[2 * n + k] += d.hiddenN;
    }
}

VECTOR_CLONES
void gruCellBackwardSumming(const float *gates, const float *hiddenN, const float *hidden, const float *dNext,
                            float *dInputGates, float *inputSums, float *dHiddenGates, float *hiddenSums,
                            float *dHidden, int64_t n)
{
    // Two loops rather than a test per element, which would keep either from vectorising.
    if (dInputGates)
        gruRowBackwardSumming<true>(gates, hiddenN, hidden, dNext, dInputGates, inputSums, dHiddenGates,
                                    hiddenSums, dHidden, n);
    else
        gruRowBackwardSumming<false>(gates, hiddenN, hidden, dNext, nullptr, inputSums, dHiddenGates, hiddenSums,
                                     dHidden, n);
}

// One unit k of the cell from its summed pre-activations; the n gate's hidden part is W_hn h + b_hn.
struct GruUnit {
    float r, z, c;
};

inline GruUnit gruUnit(float r, float z, float inputN, float hiddenN)
{
    const float rr = sigmoid(r), zz = sigmoid(z);
    return {rr, zz, fastTanh(inputN + rr * hiddenN)};
}

VECTOR_CLONES
void gruCell(const float *__restrict inputGates, const float *__restrict hiddenGates, float *__restrict hidden,
             float *__restrict gates, int64_t n)
{
    // Two loops rather than a test per element, which would keep either from vectorising.
    if (!gates) {
        for (int64_t k = 0; k < n; ++k) {
            const GruUnit u = gruUnit(inputGates[k] + hiddenGates[k], inputGates[n + k] + hiddenGates[n + k],
                                      inputGates[2 * n + k], hiddenGates[2 * n + k]);
            hidden[k] = u.c + u.z * (hidden[k] - u.c);
        }
        return;
    }
    for (int64_t k = 0; k < n; ++k) {
        const GruUnit u = gruUnit(inputGates[k] + hiddenGates[k], inputGates[n + k] + hiddenGates[n + k],
                                  inputGates[2 * n + k], hiddenGates[2 * n + k]);
        gates[k] = u.r;
        gates[n + k] = u.z;
        gates[2 * n + k] = u.c;
        hidden[k] = u.c + u.z * (hidden[k] - u.c);
    }
}

VECTOR_CLONES
void gruCellAddingBiases(const float *__restrict inputGates, const float *__restrict inputBias,
                         const float *__restrict hiddenGates, const float *__restrict hiddenBias,
                         const float *__restrict previous, float *__restrict next, float *__restrict gates,
                         float *__restrict hiddenN, int64_t n)
{
    for (int64_t k = 0; k < n; ++k) {
        hiddenN[k] = hiddenGates[2 * n + k] + hiddenBias[2 * n + k];
        const GruUnit u = gruUnit((inputGates[k] + inputBias[k]) + (hiddenGates[k] + hiddenBias[k]),
                                  (inputGates[n + k] + inputBias[n + k]) + (hiddenGates[n + k] + hiddenBias[n + k]),
                                  inputGates[2 * n + k] + inputBias[2 * n + k], hiddenN[k]);
        gates[k] = u.r;
        gates[n + k] = u.z;
        gates[2 * n + k] = u.c;
        next[k] = u.c + u.z * (previous[k] - u.c);
    }
}

torch::Tensor gruStep(const torch::Tensor &inputGates, const torch::Tensor &hiddenGates, const torch::Tensor &hidden)
{
    return GruCell::apply(inputGates, hiddenGates, hidden);
}
