#include "tests/common/testregistry.h"
#include "engine/core/runtime.h"
#include "engine/fast/parallelfor.h"

#include <QtTest>

#include <omp.h>

#include <atomic>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

Q_DECLARE_METATYPE(Workers)

namespace {

void addEveryWorkers()
{
    QTest::addColumn<Workers>("workers");
    QTest::newRow("pooled") << Workers::Pooled;
    QTest::newRow("pooled, single-threaded ops") << Workers::PooledSingleThreadedOps;
    QTest::newRow("helper") << Workers::Helper;
}

}

class TestParallelFor : public QObject
{
    Q_OBJECT
private slots:
    void visitsEveryPartOnce_data() { addEveryWorkers(); }
    void visitsEveryPartOnce()
    {
        QFETCH(Workers, workers);
        for (int parts : {0, 1, 2, 3, 7, 16})
            for (int round = 0; round < 20; ++round) {
                std::vector<std::atomic<int>> calls(static_cast<std::size_t>(parts));
                parallelFor(parts, [&](int p) { calls[std::size_t(p)].fetch_add(1); }, workers);
                for (int p = 0; p < parts; ++p)
                    QCOMPARE(calls[std::size_t(p)].load(), 1);
            }
    }

    // Pooled gives every part a thread of its own, the first being the caller.
    void pooledRunsEachPartOnItsOwnThread()
    {
        const auto caller = std::this_thread::get_id();
        std::mutex lock;
        std::set<std::thread::id> threads;
        std::thread::id first;
        parallelFor(4, [&](int p) {
            const std::lock_guard<std::mutex> guard(lock);
            threads.insert(std::this_thread::get_id());
            if (p == 0)
                first = std::this_thread::get_id();
        }, Workers::Pooled);
        QCOMPARE(threads.size(), std::size_t(4));
        QVERIFY(first == caller);
    }

    // The next loop's parts run on threads the last one used: a kept thread has its memory mapped.
    // (A thread's id may be reused by a new thread; its thread_local values are not.)
    void pooledThreadsAreKeptBetweenLoops()
    {
        static thread_local int loopsSeen = 0;
        std::vector<int> seen(3);
        for (int loop = 0; loop < 2; ++loop)
            parallelFor(3, [&](int p) { seen[std::size_t(p)] = loopsSeen++; }, Workers::Pooled);
        QVERIFY(seen[1] >= 1);
        QVERIFY(seen[2] >= 1);
    }

    // Callers on several threads at once, and parts that split again, each get workers of their
    // own and all finish.
    void concurrentAndNestedLoopsFinish()
    {
        std::atomic<int> inner{0};
        const auto loops = [&] {
            for (int round = 0; round < 30; ++round)
                parallelFor(3, [&](int) {
                    parallelFor(2, [&](int) { ++inner; }, Workers::Pooled);
                }, Workers::PooledSingleThreadedOps);
        };
        std::thread a(loops), b(loops);
        loops();
        a.join();
        b.join();
        QCOMPARE(inner.load(), 3 * 30 * 3 * 2);
    }

    // Every part of a split runs its ops on one OpenMP thread, and the caller's count comes back;
    // a part alone keeps the caller's count.
    void singleThreadedOpsOnlyWhenSplit_data()
    {
        QTest::addColumn<int>("parts");
        QTest::addColumn<int>("expected");
        QTest::newRow("split") << 3 << 1;
        QTest::newRow("one part") << 1 << 4;
    }
    void singleThreadedOpsOnlyWhenSplit()
    {
        QFETCH(int, parts);
        QFETCH(int, expected);
        const runtime::IntraOpThreads four(4);
        std::vector<int> seen(static_cast<std::size_t>(parts));
        parallelFor(parts, [&](int p) { seen[std::size_t(p)] = omp_get_max_threads(); },
                    Workers::PooledSingleThreadedOps);
        QCOMPARE(seen, std::vector<int>(static_cast<std::size_t>(parts), expected));
        QCOMPARE(omp_get_max_threads(), 4);
    }

    void exceptionReachesTheCaller_data() { addEveryWorkers(); }
    void exceptionReachesTheCaller()
    {
        QFETCH(Workers, workers);
        for (int thrower : {0, 1, 2}) {
            for (int round = 0; round < 50; ++round) {
                std::atomic<int> ran{0};
                QVERIFY_THROWS_EXCEPTION(std::runtime_error, parallelFor(3, [&](int p) {
                    if (p == thrower)
                        throw std::runtime_error("part failed");
                    ++ran;
                }, workers));
                if (workers != Workers::Helper)  // the helper's caller may skip parts after a throw
                    QCOMPARE(ran.load(), 2);
            }
        }
        std::atomic<int> after{0};
        parallelFor(3, [&](int) { ++after; }, workers);
        QCOMPARE(after.load(), 3);
    }

    // With Pooled, the lowest part's exception of several.
    void lowestPartsExceptionWins()
    {
        try {
            parallelFor(4, [](int p) {
                if (p >= 2)
                    throw std::runtime_error(std::to_string(p));
            }, Workers::Pooled);
            QFAIL("no exception");
        } catch (const std::runtime_error &e) {
            QCOMPARE(std::string(e.what()), std::string("2"));
        }
    }

    void partRangesCoverTheCountInOrder_data()
    {
        QTest::addColumn<int>("count");
        QTest::addColumn<int>("parts");
        for (int count : {0, 1, 5, 16, 100, 1001})
            for (int parts : {1, 2, 3, 7})
                QTest::newRow(qPrintable(QString("%1 in %2").arg(count).arg(parts))) << count << parts;
    }
    void partRangesCoverTheCountInOrder()
    {
        QFETCH(int, count);
        QFETCH(int, parts);
        int next = 0, smallest = count, largest = 0;
        for (int p = 0; p < parts; ++p) {
            const auto [begin, end] = partRange(count, p, parts);
            QCOMPARE(begin, next);
            QVERIFY(end >= begin);
            smallest = std::min(smallest, end - begin);
            largest = std::max(largest, end - begin);
            next = end;
        }
        QCOMPARE(next, count);
        QVERIFY(largest - smallest <= 1);
    }

    void partsFor_data()
    {
        QTest::addColumn<qint64>("work");
        QTest::addColumn<qint64>("minPerPart");
        QTest::addColumn<int>("maxParts");
        QTest::addColumn<int>("expected");
        QTest::newRow("too little for two") << qint64(31) << qint64(16) << 4 << 1;
        QTest::newRow("nothing") << qint64(0) << qint64(16) << 4 << 1;
        QTest::newRow("enough for two") << qint64(32) << qint64(16) << 4 << 2;
        QTest::newRow("capped") << qint64(1000) << qint64(16) << 4 << 4;
        QTest::newRow("no threads asked") << qint64(1000) << qint64(16) << 0 << 1;
    }
    void partsFor()
    {
        QFETCH(qint64, work);
        QFETCH(qint64, minPerPart);
        QFETCH(int, maxParts);
        QFETCH(int, expected);
        QCOMPARE(::partsFor(work, minPerPart, maxParts), expected);
    }
};

ATTNSCOPE_TEST(parallelfor, TestParallelFor)
#include "tst_parallelfor.moc"
