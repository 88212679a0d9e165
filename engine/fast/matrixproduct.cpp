#include "engine/fast/matrixproduct.h"

#include "engine/fast/singlethreadscope.h"

#include <oneapi/dnnl/dnnl.h>
#include <stdexcept>

void matrixProduct(bool transposeA, bool transposeB, int m, int n, int k, float alpha, const float *a, int lda,
                   const float *b, int ldb, float beta, float *c, int ldc)
{
    if (m == 0)
        return;
    const SingleThreadScope oneThread;
    if (dnnl_sgemm(transposeA ? 'T' : 'N', transposeB ? 'T' : 'N', m, n, k, alpha, a, lda, b, ldb, beta, c, ldc) !=
        dnnl_success)
        throw std::logic_error("matrixProduct: oneDNN refused a matrix product's sizes");
}
