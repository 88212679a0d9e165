#include "tests/common/testregistry.h"
#include "engine/core/procrustes.h"
#include "tests/common/projectiondistance.h"

#include <QtTest>

#include <cmath>
#include <random>

// A refreshed map turned back onto the last one: rotations and mirror images align exactly,
// noise nearly, and words only one map has do not steer the fit.
class TestProcrustes : public QObject
{
    Q_OBJECT
private slots:
    void turnedCopyAlignsBack_data();
    void turnedCopyAlignsBack();
    void noisyCopyAlignsClosely();
    void wordsInOnlyOneMapDoNotCount();
    void nothingInCommonLeavesTheMap();
};

namespace {

EmbeddingProjection randomMap(int words, unsigned seed)
{
    std::mt19937 random(seed);
    std::normal_distribution<double> normal(0, 1);
    EmbeddingProjection map;
    for (int i = 0; i < words; ++i)
        map.words.push_back({"w" + std::to_string(i), normal(random), normal(random) * 0.5, false, true});
    return map;
}

// Q applied to every word: [a b; c d].
EmbeddingProjection transformed(EmbeddingProjection map, double a, double b, double c, double d)
{
    for (ProjectedWord &w : map.words) {
        const double x = w.x, y = w.y;
        w.x = a * x + b * y;
        w.y = c * x + d * y;
    }
    return map;
}

}

void TestProcrustes::turnedCopyAlignsBack_data()
{
    QTest::addColumn<double>("a");
    QTest::addColumn<double>("b");
    QTest::addColumn<double>("c");
    QTest::addColumn<double>("d");
    const double t = 2.1;
    QTest::newRow("rotation") << std::cos(t) << -std::sin(t) << std::sin(t) << std::cos(t);
    QTest::newRow("half turn") << -1.0 << 0.0 << 0.0 << -1.0;
    QTest::newRow("PC1 flipped") << -1.0 << 0.0 << 0.0 << 1.0;
    QTest::newRow("PC2 flipped") << 1.0 << 0.0 << 0.0 << -1.0;
    QTest::newRow("axes swapped") << 0.0 << 1.0 << 1.0 << 0.0;
    QTest::newRow("reflection") << std::cos(t) << std::sin(t) << std::sin(t) << -std::cos(t);
}

void TestProcrustes::turnedCopyAlignsBack()
{
    QFETCH(double, a);
    QFETCH(double, b);
    QFETCH(double, c);
    QFETCH(double, d);
    const EmbeddingProjection previous = randomMap(40, 1);
    EmbeddingProjection current = transformed(previous, a, b, c, d);
    QVERIFY(largestDistance(current, previous) > 0.1);
    alignProjection(current, previous);
    QVERIFY2(largestDistance(current, previous) < 1e-9, qPrintable(QString::number(largestDistance(current, previous))));
}

void TestProcrustes::noisyCopyAlignsClosely()
{
    const EmbeddingProjection previous = randomMap(200, 2);
    EmbeddingProjection current = transformed(previous, std::cos(1.0), -std::sin(1.0), std::sin(1.0), std::cos(1.0));
    std::mt19937 random(5);
    std::normal_distribution<double> noise(0, 0.01);
    for (ProjectedWord &w : current.words) {
        w.x += noise(random);
        w.y += noise(random);
    }
    alignProjection(current, previous);
    QVERIFY(largestDistance(current, previous) < 0.06);
}

void TestProcrustes::wordsInOnlyOneMapDoNotCount()
{
    const EmbeddingProjection previous = randomMap(30, 3);
    EmbeddingProjection current = transformed(previous, 0, -1, 1, 0);  // a quarter turn
    // A far-out newcomer would pull a fit that counted it.
    current.words.push_back({"newcomer", 100, -300, false, true});
    alignProjection(current, previous);
    current.words.pop_back();
    QVERIFY(largestDistance(current, previous) < 1e-9);
}

void TestProcrustes::nothingInCommonLeavesTheMap()
{
    const EmbeddingProjection previous = randomMap(10, 4);
    EmbeddingProjection other = randomMap(10, 5);
    for (ProjectedWord &w : other.words)
        w.word += "'";
    const EmbeddingProjection before = other;
    alignProjection(other, previous);
    QCOMPARE(largestDistance(other, before), 0.0);

    EmbeddingProjection origin = previous;
    for (ProjectedWord &w : origin.words)
        w.x = w.y = 0;
    alignProjection(origin, previous);
    QCOMPARE(origin.words.front().x, 0.0);
}

ATTNSCOPE_TEST(procrustes, TestProcrustes)
#include "tst_procrustes.moc"
