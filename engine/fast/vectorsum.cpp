#include "engine/fast/vectorsum.h"

#include "engine/fast/vectorclones.h"

VECTOR_CLONES
void addInPlace(float *__restrict to, const float *__restrict from, int64_t n)
{
    for (int64_t k = 0; k < n; ++k)
        to[k] += from[k];
}
