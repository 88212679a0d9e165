#include "tests/common/testregistry.h"
#include "engine/core/projectionseries.h"
#include "tests/common/projectiondistance.h"

#include <QtTest>

#include <cmath>
#include <random>

// A run's maps on one basis: a table turned in its own space comes back onto the last map, a
// changed one lands near it, the last map is left as projectEmbeddings2d made it, and a word's
// trail has one point per map up to the one shown.
class TestProjectionSeries : public QObject
{
    Q_OBJECT
private slots:
    void rotatedTableAlignsBack_data();
    void rotatedTableAlignsBack();
    void theLastMapKeepsItsOwnBasis();
    void aMovedTableLandsNearTheReference();
    void trailHasOnePointPerMapUpToTheShownOne();
};

namespace {

constexpr int kDimensions = 4;

EmbeddingTable randomTable(int words, unsigned seed)
{
    std::mt19937 random(seed);
    std::normal_distribution<float> normal(0, 1);
    EmbeddingTable table;
    table.dimensions = kDimensions;
    for (int i = 0; i < words; ++i) {
        table.words.push_back("w" + std::to_string(i));
        // Unequal spreads per dimension, so the principal components are well defined.
        for (int d = 0; d < kDimensions; ++d)
            table.values.push_back(normal(random) * float(kDimensions - d));
    }
    return table;
}

// Every row turned by `angle` in the plane of dimensions a and b: the same cloud, other coordinates.
EmbeddingTable rotated(EmbeddingTable table, int a, int b, double angle)
{
    for (std::size_t row = 0; row < table.words.size(); ++row) {
        float *v = table.values.data() + row * kDimensions;
        const double x = v[a], y = v[b];
        v[a] = float(std::cos(angle) * x - std::sin(angle) * y);
        v[b] = float(std::sin(angle) * x + std::cos(angle) * y);
    }
    return table;
}

}

void TestProjectionSeries::rotatedTableAlignsBack_data()
{
    QTest::addColumn<int>("a");
    QTest::addColumn<int>("b");
    QTest::addColumn<double>("angle");
    QTest::newRow("half turn of the first two dimensions") << 0 << 1 << M_PI;
    QTest::newRow("quarter turn of the first two dimensions") << 0 << 1 << M_PI / 2;
    QTest::newRow("half turn of dimensions 2 and 4") << 1 << 3 << M_PI;
}

void TestProjectionSeries::rotatedTableAlignsBack()
{
    QFETCH(int, a);
    QFETCH(int, b);
    QFETCH(double, angle);
    const EmbeddingTable reference = randomTable(40, 1);
    const EmbeddingTable turned = rotated(reference, a, b, angle);
    // On its own, the turned copy's map differs from the reference's: PCA gave it other axes.
    const EmbeddingProjection alone = projectEmbeddings2d(turned);
    const EmbeddingProjection expected = projectEmbeddings2d(reference);
    QVERIFY2(largestDistance(alone, expected) > 0.1, qPrintable(QString::number(largestDistance(alone, expected))));

    const std::vector<EmbeddingProjection> maps = projectSeries({turned, reference});
    QCOMPARE(maps.size(), std::size_t(2));
    QVERIFY2(largestDistance(maps[0], expected) < 1e-4, qPrintable(QString::number(largestDistance(maps[0], expected))));
}

void TestProjectionSeries::theLastMapKeepsItsOwnBasis()
{
    const EmbeddingTable last = randomTable(30, 2);
    const std::vector<EmbeddingProjection> maps =
        projectSeries({randomTable(30, 3), rotated(last, 1, 3, 1.0), last});
    const EmbeddingProjection own = projectEmbeddings2d(last);
    QCOMPARE(largestDistance(maps.back(), own), 0.0);
    QCOMPARE(maps.back().explainedVariance[0], own.explainedVariance[0]);
}

void TestProjectionSeries::aMovedTableLandsNearTheReference()
{
    const EmbeddingTable reference = randomTable(60, 4);
    EmbeddingTable moved = rotated(reference, 0, 1, 2.0);
    std::mt19937 random(9);
    std::normal_distribution<float> noise(0, 0.01f);
    for (float &value : moved.values)
        value += noise(random);
    const std::vector<EmbeddingProjection> maps = projectSeries({moved, reference});
    QVERIFY(largestDistance(projectEmbeddings2d(moved), maps.back()) > 0.1);
    QVERIFY2(largestDistance(maps[0], maps.back()) < 0.1, qPrintable(QString::number(largestDistance(maps[0], maps.back()))));
}

void TestProjectionSeries::trailHasOnePointPerMapUpToTheShownOne()
{
    EmbeddingTable first = randomTable(10, 5);
    EmbeddingTable second = randomTable(10, 6);
    second.words[3] = "newcomer";  // "w3" is not on the second map
    const EmbeddingTable third = randomTable(10, 7);
    const std::vector<EmbeddingProjection> maps = projectSeries({first, second, third});

    for (std::size_t shown = 1; shown <= 3; ++shown) {
        const std::vector<MapPoint> trail = trailOf(maps, "w5", shown);
        QCOMPARE(trail.size(), shown);
        for (std::size_t i = 0; i < shown; ++i) {
            QCOMPARE(trail[i].x, maps[i].words[5].x);
            QCOMPARE(trail[i].y, maps[i].words[5].y);
        }
    }
    QCOMPARE(trailOf(maps, "w3", 3).size(), std::size_t(2));
    QCOMPARE(trailOf(maps, "w5", 10).size(), std::size_t(3));
    QVERIFY(trailOf(maps, "absent", 3).empty());
}

ATTNSCOPE_TEST(projectionseries, TestProjectionSeries)
#include "tst_projectionseries.moc"
