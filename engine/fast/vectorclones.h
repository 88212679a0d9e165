#pragma once

// Builds a hot loop for AVX-512 and AVX2 besides the baseline the project compiles for; the
// machine's best runs, picked when the program loads. Products and sums are not fused into FMA
// instructions (which only the new targets have), so every version computes the same floats.
#define VECTOR_CLONES __attribute__((target_clones("avx512f", "avx2", "default"), optimize("fp-contract=off")))
