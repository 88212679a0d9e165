#pragma once

// Builds a hot loop for AVX-512 and AVX2 besides the baseline the project compiles for; the
// machine's best runs, picked when the program loads. Whatever the loop calls is inlined into it
// (flatten), so that the helpers it uses are built for each target too. The files that use it are
// built with -ffp-contract=off (engine/fast/CMakeLists.txt), so no version fuses products and sums
// into FMA instructions: every version computes the same floats.
#define VECTOR_CLONES __attribute__((target_clones("avx512f", "avx2", "default"), flatten))
