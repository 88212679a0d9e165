#include "engine/fast/lstmcell.h"

#include "engine/fast/fastmath.h"
#include "engine/fast/vectorclones.h"

// Two loops rather than a test per element, which would keep either from vectorising; no two of
// the rows overlap (__restrict).
VECTOR_CLONES
void lstmCell(const float *__restrict preActivations, float *__restrict hidden, float *__restrict cell,
              float *__restrict gates, int64_t n)
{
    const float *a = preActivations;
    if (!gates) {
        for (int64_t k = 0; k < n; ++k) {
            const float i = sigmoid(a[k]), f = sigmoid(a[n + k]), g = fastTanh(a[2 * n + k]), o = sigmoid(a[3 * n + k]);
            cell[k] = f * cell[k] + i * g;
            hidden[k] = o * fastTanh(cell[k]);
        }
        return;
    }
    for (int64_t k = 0; k < n; ++k) {
        const float i = gates[k] = sigmoid(a[k]);
        const float f = gates[n + k] = sigmoid(a[n + k]);
        const float g = gates[2 * n + k] = fastTanh(a[2 * n + k]);
        const float o = gates[3 * n + k] = sigmoid(a[3 * n + k]);
        cell[k] = f * cell[k] + i * g;
        hidden[k] = o * fastTanh(cell[k]);
    }
}

VECTOR_CLONES
void lstmCellBackward(const float *__restrict gates, const float *__restrict cell, const float *__restrict nextCell,
                      const float *__restrict dNextHidden, float *__restrict dCell, float *__restrict dPreActivations,
                      int64_t n)
{
    float *da = dPreActivations;
    for (int64_t k = 0; k < n; ++k) {
        const float i = gates[k], f = gates[n + k], g = gates[2 * n + k], o = gates[3 * n + k];
        const float t = fastTanh(nextCell[k]);
        const float dc = dCell[k] + dNextHidden[k] * o * (1.0f - t * t);
        da[k] = dc * g * i * (1.0f - i);
        da[n + k] = dc * cell[k] * f * (1.0f - f);
        da[2 * n + k] = dc * i * (1.0f - g * g);
        da[3 * n + k] = dNextHidden[k] * t * o * (1.0f - o);
        dCell[k] = dc * f;
    }
}
