#include "tests/common/testregistry.h"
#include "engine/fast/helperthread.h"

#include <QtTest>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

namespace {

void busyFor(std::chrono::microseconds duration)
{
    const auto end = std::chrono::steady_clock::now() + duration;
    while (std::chrono::steady_clock::now() < end) {
    }
}

}

class TestHelperThread : public QObject
{
    Q_OBJECT
private slots:
    void runsEveryPartOnce_data()
    {
        QTest::addColumn<int>("parts");
        for (int parts : {0, 1, 2, 3, 7})
            QTest::newRow(qPrintable(QString::number(parts) + " parts")) << parts;
    }
    void runsEveryPartOnce()
    {
        QFETCH(int, parts);
        for (int round = 0; round < 500; ++round) {
            std::vector<std::atomic<int>> calls(static_cast<std::size_t>(parts));
            HelperThread::shared().run(parts, [&](int p) { calls[std::size_t(p)].fetch_add(1); });
            for (int p = 0; p < parts; ++p)
                QCOMPARE(calls[std::size_t(p)].load(), 1);
        }
    }

    // The point of it: some parts run on another thread while the caller runs the rest.
    void sharesTheWork()
    {
        const auto caller = std::this_thread::get_id();
        int elsewhere = 0;
        for (int round = 0; round < 200; ++round) {
            std::atomic<int> others{0};
            HelperThread::shared().run(2, [&](int) {
                if (std::this_thread::get_id() != caller)
                    ++others;
                busyFor(std::chrono::milliseconds(1));  // long enough for a busy machine to schedule the helper
            });
            elsewhere += others.load();
        }
        QVERIFY2(elsewhere > 0, "the helper never took a part");
    }

    void standbyKeepsEveryPartOnTheCaller()
    {
        const auto caller = std::this_thread::get_id();
        std::atomic<int> elsewhere{0};
        {
            const HelperThread::Standby standby;
            for (int round = 0; round < 200; ++round)
                HelperThread::shared().run(2, [&](int) {
                    if (std::this_thread::get_id() != caller)
                        ++elsewhere;
                    busyFor(std::chrono::milliseconds(1));  // long enough for a busy machine to schedule the helper
                });
        }
        QCOMPARE(elsewhere.load(), 0);
        std::atomic<int> others{0};
        for (int round = 0; round < 200 && others == 0; ++round)
            HelperThread::shared().run(2, [&](int) {
                if (std::this_thread::get_id() != caller)
                    ++others;
                busyFor(std::chrono::milliseconds(1));  // long enough for a busy machine to schedule the helper
            });
        QVERIFY2(others > 0, "the helper did not come back after the standby");
    }

    // A helper that went to sleep is woken by the next loop.
    void wakesAfterSleeping()
    {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        std::atomic<int> done{0};
        HelperThread::shared().run(4, [&](int) { ++done; });
        QCOMPARE(done.load(), 4);
    }

    void concurrentCallersAndNestedLoopsEachFinish()
    {
        std::atomic<long> total{0};
        auto caller = [&] {
            for (int round = 0; round < 300; ++round)
                HelperThread::shared().run(3, [&](int) {
                    HelperThread::shared().run(2, [&](int) { ++total; });
                });
        };
        std::thread a(caller), b(caller);
        a.join();
        b.join();
        QCOMPARE(total.load(), 2L * 300 * 3 * 2);
    }
};

ATTNSCOPE_TEST(helperthread, TestHelperThread)
#include "tst_helperthread.moc"
