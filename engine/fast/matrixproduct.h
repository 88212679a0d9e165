#pragma once

// c = alpha op(a) op(b) + beta c for row-major float matrices, op(x) being x or its transpose,
// through the sgemm of oneDNN, which LibTorch already loads. For the few rows of a recurrent step
// it is markedly faster than OpenBLAS, most of all with b as stored rather than transposed.
// Runs on the calling thread alone: its callers share out rows between threads themselves.
void matrixProduct(bool transposeA, bool transposeB, int m, int n, int k, float alpha, const float *a, int lda,
                   const float *b, int ldb, float beta, float *c, int ldc);
