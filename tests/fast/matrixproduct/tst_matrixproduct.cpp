#include "tests/common/testregistry.h"
#include "engine/fast/matrixproduct.h"

#include "engine/core/runtime.h"
#include "engine/core/torchapi.h"

#include <QtTest>

#include <omp.h>
#include <thread>

// matrixProduct against torch::mm: every pair of transposes, alpha and beta, and leading
// dimensions wider than the matrices, as when a product writes into part of a larger buffer.
class TestMatrixProduct : public QObject
{
    Q_OBJECT
private slots:
    void matchesTorch_data();
    void matchesTorch();
    void noRowsLeavesTheOutput();
    void keepsTheThreadsOpenMpCount();
};

void TestMatrixProduct::matchesTorch_data()
{
    QTest::addColumn<bool>("transposeA");
    QTest::addColumn<bool>("transposeB");
    QTest::addColumn<float>("alpha");
    QTest::addColumn<float>("beta");
    QTest::newRow("a b") << false << false << 1.0f << 0.0f;
    QTest::newRow("a b, added to c") << false << false << 1.0f << 1.0f;
    QTest::newRow("a b^T") << false << true << 1.0f << 0.0f;
    QTest::newRow("a^T b") << true << false << 1.0f << 1.0f;
    QTest::newRow("a^T b^T, scaled") << true << true << 0.5f << 2.0f;
}

void TestMatrixProduct::matchesTorch()
{
    QFETCH(bool, transposeA);
    QFETCH(bool, transposeB);
    QFETCH(float, alpha);
    QFETCH(float, beta);
    torch::manual_seed(7);
    const int m = 5, n = 7, k = 3, pad = 2;
    // Stored with `pad` extra columns; opA is (m, k) and opB (k, n) whichever way they are stored.
    const auto a = torch::randn({transposeA ? k : m, (transposeA ? m : k) + pad});
    const auto b = torch::randn({transposeB ? n : k, (transposeB ? k : n) + pad});
    auto c = torch::randn({m, n + pad});
    const auto opA = transposeA ? a.narrow(1, 0, m).t() : a.narrow(1, 0, k);
    const auto opB = transposeB ? b.narrow(1, 0, k).t() : b.narrow(1, 0, n);
    const auto expected = c.narrow(1, 0, n) * beta + torch::mm(opA, opB) * alpha;
    const auto untouched = c.narrow(1, n, pad).clone();

    matrixProduct(transposeA, transposeB, m, n, k, alpha, a.data_ptr<float>(), int(a.size(1)), b.data_ptr<float>(),
                  int(b.size(1)), beta, c.data_ptr<float>(), int(c.size(1)));
    QVERIFY(torch::allclose(c.narrow(1, 0, n), expected, 1e-5, 1e-5));
    QVERIFY(torch::equal(c.narrow(1, n, pad), untouched));
}

void TestMatrixProduct::noRowsLeavesTheOutput()
{
    float a = 1, b = 2, c = 3;
    matrixProduct(false, false, 0, 1, 1, 1.0f, &a, 1, &b, 1, 0.0f, &c, 1);
    QCOMPARE(c, 3.0f);
}

// A thread that set its own OpenMP count and never ran a LibTorch op (the decoder's helper) keeps
// that count: LibTorch's first call on a thread would have set it to LibTorch's default, 3 here,
// and the thread's next BLAS calls would have woken two more threads.
void TestMatrixProduct::keepsTheThreadsOpenMpCount()
{
    const runtime::IntraOpThreads three(3);
    float a = 1, b = 2, c = 0;
    for (int own : {1, 2}) {
        int after = 0;
        std::thread([&] {
            omp_set_num_threads(own);
            matrixProduct(false, false, 1, 1, 1, 1.0f, &a, 1, &b, 1, 0.0f, &c, 1);
            after = omp_get_max_threads();
        }).join();
        QCOMPARE(after, own);
        QCOMPARE(c, 2.0f);
    }
}

ATTNSCOPE_TEST(matrixproduct, TestMatrixProduct)
#include "tst_matrixproduct.moc"
