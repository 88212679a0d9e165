#include "engine/core/pca.h"

#include <QtTest>

#include <cmath>
#include <random>

namespace {

// Five points along d = (0.6, 0.8) with a small spread along e = (-0.8, 0.6), uncorrelated with the
// position along d, around the mean (1, 2, 3, ...). By hand: sum t^2 = 10, sum s^2 = 0.04.
const double kAlong[] = {-2, -1, 0, 1, 2};
const double kAcross[] = {0.1, -0.1, 0, -0.1, 0.1};

std::vector<float> lineWithSpread(int dimensions)
{
    std::vector<float> values;
    for (int i = 0; i < 5; ++i) {
        for (int d = 0; d < dimensions; ++d) {
            double x = d + 1;
            if (d == 0)
                x += 0.6 * kAlong[i] - 0.8 * kAcross[i];
            if (d == 1)
                x += 0.8 * kAlong[i] + 0.6 * kAcross[i];
            values.push_back(float(x));
        }
    }
    return values;
}

double axisEntry(const PrincipalComponents &pca, int component, int dimension)
{
    return pca.axes[std::size_t(component * pca.dimensions + dimension)];
}

} // namespace

class TestPca : public QObject
{
    Q_OBJECT

private slots:
    void knownDirection_data();
    void knownDirection();
    void orthonormalAxesAndFullVariance_data();
    void orthonormalAxesAndFullVariance();
    void degenerateData_data();
    void degenerateData();
    void rejectsBadShape();
    void nearestByCosineOrder();
    void nearestByCosineRejectsBadIndex();
};

void TestPca::knownDirection_data()
{
    QTest::addColumn<int>("dimensions");
    QTest::newRow("more rows than columns (covariance)") << 3;
    QTest::newRow("fewer rows than columns (Gram)") << 8;
}

void TestPca::knownDirection()
{
    QFETCH(int, dimensions);
    const PrincipalComponents pca = principalComponents(lineWithSpread(dimensions), 5, dimensions, 2);

    QCOMPARE(pca.components, 2);
    QCOMPARE(pca.dimensions, dimensions);
    for (int d = 0; d < dimensions; ++d)
        QVERIFY(std::abs(pca.mean[std::size_t(d)] - (d + 1)) < 1e-6);

    // First axis d = (0.6, 0.8, 0...); second is e = (-0.8, 0.6) flipped so its largest entry is positive.
    const double expectedFirst[] = {0.6, 0.8};
    const double expectedSecond[] = {0.8, -0.6};
    for (int d = 0; d < dimensions; ++d) {
        QVERIFY2(std::abs(axisEntry(pca, 0, d) - (d < 2 ? expectedFirst[d] : 0.0)) < 1e-5,
                 qPrintable(QString("axis 1, entry %1 = %2").arg(d).arg(axisEntry(pca, 0, d))));
        QVERIFY2(std::abs(axisEntry(pca, 1, d) - (d < 2 ? expectedSecond[d] : 0.0)) < 1e-4,
                 qPrintable(QString("axis 2, entry %1 = %2").arg(d).arg(axisEntry(pca, 1, d))));
    }

    QCOMPARE(int(pca.explainedVariance.size()), 2);
    QVERIFY(std::abs(pca.explainedVariance[0] - 10.0 / 10.04) < 1e-6);
    QVERIFY(std::abs(pca.explainedVariance[1] - 0.04 / 10.04) < 1e-6);

    QCOMPARE(int(pca.projected.size()), 5 * 2);
    for (int i = 0; i < 5; ++i) {
        QVERIFY(std::abs(pca.projected[std::size_t(2 * i)] - kAlong[i]) < 1e-5);
        QVERIFY(std::abs(pca.projected[std::size_t(2 * i + 1)] + kAcross[i]) < 1e-5);
    }
}

void TestPca::orthonormalAxesAndFullVariance_data()
{
    QTest::addColumn<int>("rows");
    QTest::addColumn<int>("columns");
    QTest::newRow("38 x 16") << 38 << 16;
    QTest::newRow("6 x 10, rank below columns") << 6 << 10;
}

void TestPca::orthonormalAxesAndFullVariance()
{
    QFETCH(int, rows);
    QFETCH(int, columns);
    std::mt19937 random(7);
    std::normal_distribution<float> normal;
    std::vector<float> values(std::size_t(rows * columns));
    for (float &x : values)
        x = normal(random);

    // All components: together they explain everything, each axis is a unit vector orthogonal to the others.
    const PrincipalComponents pca = principalComponents(values, rows, columns, columns);
    QCOMPARE(pca.components, columns);
    double sum = 0;
    for (int i = 0; i < columns; ++i) {
        sum += pca.explainedVariance[std::size_t(i)];
        if (i > 0)
            QVERIFY(pca.explainedVariance[std::size_t(i)] <= pca.explainedVariance[std::size_t(i - 1)] + 1e-12);
        for (int j = 0; j <= i; ++j) {
            double dot = 0;
            for (int d = 0; d < columns; ++d)
                dot += axisEntry(pca, i, d) * axisEntry(pca, j, d);
            QVERIFY2(std::abs(dot - (i == j ? 1.0 : 0.0)) < 1e-9,
                     qPrintable(QString("axes %1.%2 = %3").arg(i).arg(j).arg(dot)));
        }
    }
    QVERIFY(std::abs(sum - 1.0) < 1e-9);
}

void TestPca::degenerateData_data()
{
    QTest::addColumn<int>("rows");
    QTest::addColumn<int>("columns");
    QTest::addColumn<float>("step");
    QTest::newRow("4 equal rows x 3") << 4 << 3 << 0.5f;
    QTest::newRow("7 equal rows x 3, mean not a short binary fraction") << 7 << 3 << 0.1f;
    QTest::newRow("2 equal rows x 5") << 2 << 5 << 0.5f;
    QTest::newRow("single row") << 1 << 4 << 0.5f;
}

void TestPca::degenerateData()
{
    QFETCH(int, rows);
    QFETCH(int, columns);
    QFETCH(float, step);
    std::vector<float> values;
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < columns; ++c)
            values.push_back(step * float(c) + 0.4f);

    const PrincipalComponents pca = principalComponents(values, rows, columns, 2);
    QCOMPARE(pca.components, 2);
    for (double ratio : pca.explainedVariance)
        QCOMPARE(ratio, 0.0);
    for (double p : pca.projected)
        QVERIFY(std::isfinite(p) && std::abs(p) < 1e-9);
    for (int i = 0; i < 2; ++i) {
        double norm = 0;
        for (int d = 0; d < columns; ++d) {
            QVERIFY(std::isfinite(axisEntry(pca, i, d)));
            norm += axisEntry(pca, i, d) * axisEntry(pca, i, d);
        }
        QVERIFY(std::abs(norm - 1) < 1e-12);
    }
}

void TestPca::rejectsBadShape()
{
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, principalComponents({1, 2, 3}, 2, 2));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, principalComponents({}, -1, 0));
    // More components than dimensions: capped, not an error.
    QCOMPARE(principalComponents({1, 2, 3, 4}, 2, 2, 5).components, 2);
}

void TestPca::nearestByCosineOrder()
{
    const std::vector<float> values = {
        1, 0,    // 0: the query
        1, 1,    // 1: 45 degrees, cos 0.707
        0, 1,    // 2: orthogonal, cos 0
        -1, 0,   // 3: opposite, cos -1
        2, 0.1f, // 4: almost the same direction, cos 0.99875
        0, 0,    // 5: zero row, similarity 0 rather than NaN
    };
    const auto nearest = nearestByCosine(values, 6, 2, 0, 3);
    QCOMPARE(int(nearest.size()), 3);
    QCOMPARE(nearest[0].first, 4);
    QVERIFY(std::abs(nearest[0].second - 2 / std::sqrt(4.01)) < 1e-6);
    QCOMPARE(nearest[1].first, 1);
    QVERIFY(std::abs(nearest[1].second - std::sqrt(0.5)) < 1e-6);
    QCOMPARE(nearest[2].first, 2);
    QCOMPARE(nearest[2].second, 0.0);

    const auto all = nearestByCosine(values, 6, 2, 0, 100);
    QCOMPARE(int(all.size()), 5);
    QCOMPARE(all[3].first, 5);
    QCOMPARE(all[4].first, 3);
    QVERIFY(std::abs(all[4].second + 1) < 1e-9);

    const auto fromZero = nearestByCosine(values, 6, 2, 5, 2);
    QCOMPARE(int(fromZero.size()), 2);
    for (const auto &entry : fromZero)
        QCOMPARE(entry.second, 0.0);
}

void TestPca::nearestByCosineRejectsBadIndex()
{
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, nearestByCosine({1, 0, 0, 1}, 2, 2, 2, 1));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, nearestByCosine({1, 0, 0, 1}, 2, 2, -1, 1));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, nearestByCosine({1, 0, 0}, 2, 2, 0, 1));
}

QTEST_MAIN(TestPca)
#include "tst_pca.moc"
