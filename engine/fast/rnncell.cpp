#include "engine/fast/rnncell.h"

#include "engine/fast/fastmath.h"
#include "engine/fast/vectorclones.h"

VECTOR_CLONES
void rnnCell(const float *__restrict preActivation, float *__restrict hidden, int64_t n)
{
    for (int64_t k = 0; k < n; ++k)
        hidden[k] = fastTanh(preActivation[k]);
}

VECTOR_CLONES
void rnnCellBackward(const float *__restrict hidden, const float *__restrict dNext, float *__restrict dPreActivation,
                     int64_t n)
{
    for (int64_t k = 0; k < n; ++k)
        dPreActivation[k] = dNext[k] * (1.0f - hidden[k] * hidden[k]);
}
