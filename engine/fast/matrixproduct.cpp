#include "engine/fast/matrixproduct.h"

#include <oneapi/dnnl/dnnl.h>
#include <omp.h>
#include <stdexcept>

namespace {

// oneDNN's sgemm takes as many threads as OpenMP allows this thread. Set through OpenMP alone, not
// SingleThreadScope: LibTorch's first call on a thread (the decoder's helper, say) would set that
// thread's count to LibTorch's default, and its later BLAS calls would wake a second thread.
class OneOpenMpThread
{
public:
    OneOpenMpThread() : m_previous(omp_get_max_threads())
    {
        if (m_previous > 1)
            omp_set_num_threads(1);
    }
    ~OneOpenMpThread()
    {
        if (m_previous > 1)
            omp_set_num_threads(m_previous);
    }
    OneOpenMpThread(const OneOpenMpThread &) = delete;
    OneOpenMpThread &operator=(const OneOpenMpThread &) = delete;

private:
    int m_previous;
};

}

void matrixProduct(bool transposeA, bool transposeB, int m, int n, int k, float alpha, const float *a, int lda,
                   const float *b, int ldb, float beta, float *c, int ldc)
{
    if (m == 0)
        return;
    const OneOpenMpThread oneThread;
    if (dnnl_sgemm(transposeA ? 'T' : 'N', transposeB ? 'T' : 'N', m, n, k, alpha, a, lda, b, ldb, beta, c, ldc) !=
        dnnl_success)
        throw std::logic_error("matrixProduct: oneDNN refused a matrix product's sizes");
}
