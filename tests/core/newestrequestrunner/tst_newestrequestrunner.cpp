#include "tests/common/testregistry.h"
#include "ui/core/newestrequestrunner.h"

#include <QtTest>

#include <atomic>
#include <future>
#include <stdexcept>
#include <thread>

// The runner both labs' attribution views compute on: of the requests made while one runs, only
// the newest is computed, and a result is delivered only while its request is the newest. The
// order of events is set by promises, not by waiting times.
class TestNewestRequestRunner : public QObject
{
    Q_OBJECT
private slots:
    void computesAndDeliversOnlyTheNewest();
    void dropsAResultSupersededOnItsWay();
    void reportsTheNewestFailure();
};

void TestNewestRequestRunner::computesAndDeliversOnlyTheNewest()
{
    NewestRequestRunner runner;
    std::promise<void> started;
    std::promise<void> release;
    std::shared_future<void> released = release.get_future().share();
    std::atomic<int> ran{0};  // a bit per request computed
    QStringList delivered;
    const auto request = [&](int bit, const QString &name) {
        return [&, bit, name] {
            ran |= bit;
            return std::function<void()>([&delivered, name] { delivered << name; });
        };
    };
    runner.post([&, first = request(1, QStringLiteral("first"))] {
        started.set_value();
        released.wait();
        return first();
    });
    started.get_future().wait();
    QVERIFY(runner.busy());
    runner.post(request(2, QStringLiteral("second")));
    runner.post(request(4, QStringLiteral("third")));
    release.set_value();
    QVERIFY(QTest::qWaitFor([&] { return !delivered.isEmpty(); }, 20000));
    QVERIFY(QTest::qWaitFor([&] { return !runner.busy(); }, 20000));
    QCoreApplication::processEvents();  // whatever else was on its way arrives now
    QCOMPARE(delivered, QStringList{QStringLiteral("third")});
    QCOMPARE(ran.load(), 1 | 4);  // the second was superseded before it started
}

void TestNewestRequestRunner::dropsAResultSupersededOnItsWay()
{
    NewestRequestRunner runner;
    QStringList delivered;
    runner.post([&delivered] { return std::function<void()>([&delivered] { delivered << QStringLiteral("old"); }); });
    while (runner.busy())  // computed; its delivery waits for this thread to process events
        std::this_thread::yield();
    runner.post([&delivered] { return std::function<void()>([&delivered] { delivered << QStringLiteral("new"); }); });
    QVERIFY(QTest::qWaitFor([&] { return !delivered.isEmpty(); }, 20000));
    QCoreApplication::processEvents();
    QCOMPARE(delivered, QStringList{QStringLiteral("new")});
}

void TestNewestRequestRunner::reportsTheNewestFailure()
{
    NewestRequestRunner runner;
    QStringList failures;
    connect(&runner, &NewestRequestRunner::failed, this, [&failures](const QString &message) { failures << message; });
    runner.post([]() -> std::function<void()> { throw std::invalid_argument("'zebra' is not a word it knows"); });
    QVERIFY(QTest::qWaitFor([&] { return !failures.isEmpty(); }, 20000));
    QCOMPARE(failures, QStringList{QStringLiteral("'zebra' is not a word it knows")});
}

ATTNSCOPE_TEST(newestrequestrunner, TestNewestRequestRunner)
#include "tst_newestrequestrunner.moc"
