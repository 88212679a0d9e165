#include "tests/common/testregistry.h"
#include "engine/core/runtime.h"
#include "engine/core/torchapi.h"
#include "engine/fast/singlethreadscope.h"

#include <QtTest>

#include <malloc.h>
#include <omp.h>

#include <cstdlib>
#include <thread>

namespace {

// The intra-op threads a thread gets when it first runs an op.
int newThreadsCount()
{
    int count = 0;
    std::thread([&] { count = torch::get_num_threads(); }).join();
    return count;
}

}

class TestRuntime : public QObject
{
    Q_OBJECT
private slots:
    // This thread's count (LibTorch's and OpenMP's, which BLAS reads) and the one new threads
    // take come back when a scope ends, nested scopes included.
    void intraOpThreadsRestoreWhatTheyFound()
    {
        const int here = torch::get_num_threads(), fresh = newThreadsCount();
        const int outerThreads = here + 3, innerThreads = here + 1;  // neither is what was there
        {
            const runtime::IntraOpThreads outer(outerThreads);
            QCOMPARE(torch::get_num_threads(), outerThreads);
            QCOMPARE(omp_get_max_threads(), outerThreads);
            QCOMPARE(newThreadsCount(), outerThreads);
            {
                const runtime::IntraOpThreads inner(innerThreads);
                QCOMPARE(omp_get_max_threads(), innerThreads);
                QCOMPARE(newThreadsCount(), innerThreads);
            }
            QCOMPARE(omp_get_max_threads(), outerThreads);
            QCOMPARE(newThreadsCount(), outerThreads);
        }
        QCOMPARE(torch::get_num_threads(), here);
        QCOMPARE(omp_get_max_threads(), here);
        QCOMPARE(newThreadsCount(), fresh);
    }

    // Inside a SingleThreadScope this thread's count differs from the default; both come back.
    void intraOpThreadsRestoreThisThreadsOwnCount()
    {
        const int outerThreads = 5;
        const runtime::IntraOpThreads outer(outerThreads);
        {
            const SingleThreadScope singleThread;
            {
                const runtime::IntraOpThreads inner(3);
            }
            QCOMPARE(omp_get_max_threads(), 1);
            QCOMPARE(newThreadsCount(), outerThreads);
        }
        QCOMPARE(omp_get_max_threads(), outerThreads);
    }

    // ctest sets OMP_WAIT_POLICY, so startProcess() carries on in this process; from then on a
    // block larger than glibc's largest mmap threshold comes from the heap and stays there freed.
    void startProcessKeepsFreedMemory()
    {
        QVERIFY(std::getenv("OMP_WAIT_POLICY"));
        char name[] = "tst_runtime";
        char *argv[] = {name, nullptr};
        runtime::startProcess(argv);
        constexpr std::size_t kBlock = 48u << 20;
        const struct mallinfo2 before = mallinfo2();
        char *volatile block = static_cast<char *>(std::malloc(kBlock));
        QVERIFY(block);
        block[0] = 1;
        QCOMPARE(mallinfo2().hblks, before.hblks);  // not a mapping of its own
        std::free(block);
        QVERIFY(mallinfo2().arena >= before.arena + kBlock);  // not given back
    }
};

ATTNSCOPE_TEST(runtime, TestRuntime)
#include "tst_runtime.moc"
