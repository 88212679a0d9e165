#include "tests/common/testregistry.h"
#include "engine/core/seedspread.h"

#include <QtTest>

// Mean, minimum and maximum over runs, per key, on hand-made numbers.
class TestSeedSpread : public QObject
{
    Q_OBJECT
private slots:
    void spreadOfValues();
    void noValuesNoRuns();
    void runsOfDifferentLengthsCountWhereTheyReached();
};

void TestSeedSpread::spreadOfValues()
{
    const Spread s = spreadOf({0.8, 0.2, 0.5, 0.9});
    QCOMPARE(s.mean, 0.6);
    QCOMPARE(s.min, 0.2);
    QCOMPARE(s.max, 0.9);
    QCOMPARE(s.runs, 4);
}

void TestSeedSpread::noValuesNoRuns()
{
    const Spread s = spreadOf({});
    QCOMPARE(s.runs, 0);
    QCOMPARE(s.mean, 0.0);
    QVERIFY(spreadByKey({}).empty());
}

void TestSeedSpread::runsOfDifferentLengthsCountWhereTheyReached()
{
    // The second run stopped after epoch 2; the third has a gap at 2 (e.g. a length without sentences).
    const std::map<int, Spread> s =
        spreadByKey({{{1, 1.0}, {2, 2.0}, {3, 3.0}}, {{1, 3.0}, {2, 6.0}}, {{1, 2.0}, {3, 5.0}}});
    QCOMPARE(s.size(), std::size_t(3));
    QCOMPARE(s.at(1).mean, 2.0);
    QCOMPARE(s.at(1).min, 1.0);
    QCOMPARE(s.at(1).max, 3.0);
    QCOMPARE(s.at(1).runs, 3);
    QCOMPARE(s.at(2).mean, 4.0);
    QCOMPARE(s.at(2).min, 2.0);
    QCOMPARE(s.at(2).max, 6.0);
    QCOMPARE(s.at(2).runs, 2);
    QCOMPARE(s.at(3).mean, 4.0);
    QCOMPARE(s.at(3).min, 3.0);
    QCOMPARE(s.at(3).max, 5.0);
    QCOMPARE(s.at(3).runs, 2);
}

ATTNSCOPE_TEST(seedspread, TestSeedSpread)
#include "tst_seedspread.moc"
