#include "tests/common/testregistry.h"
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

std::vector<float> randomValues(int rows, int columns, unsigned seed)
{
    std::mt19937 random(seed);
    std::normal_distribution<float> normal;
    std::vector<float> values(std::size_t(rows * columns));
    for (float &x : values)
        x = normal(random);
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
    void signsAreFixed_data();
    void signsAreFixed();
};

void TestPca::knownDirection_data()
{
    QTest::addColumn<int>("dimensions");
    QTest::newRow("more rows than columns") << 3;
    QTest::newRow("fewer rows than columns") << 8;
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
    const std::vector<float> values = randomValues(rows, columns, 7);

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

void TestPca::signsAreFixed_data()
{
    QTest::addColumn<int>("rows");
    QTest::addColumn<int>("columns");
    QTest::newRow("40 x 6") << 40 << 6;
    QTest::newRow("5 x 12, fewer rows than columns") << 5 << 12;
}

void TestPca::signsAreFixed()
{
    QFETCH(int, rows);
    QFETCH(int, columns);
    const std::vector<float> values = randomValues(rows, columns, 11);
    // The same points negated, and in the opposite order: LAPACK's singular vectors may come out
    // with either sign for these, the fitted axes must not.
    std::vector<float> negated;
    for (float x : values)
        negated.push_back(-x);
    std::vector<float> reversed;
    for (int r = rows - 1; r >= 0; --r)
        reversed.insert(reversed.end(), values.begin() + r * columns, values.begin() + (r + 1) * columns);

    const int k = std::min(rows - 1, 3);
    const PrincipalComponents pca = principalComponents(values, rows, columns, k);
    const PrincipalComponents fromNegated = principalComponents(negated, rows, columns, k);
    const PrincipalComponents fromReversed = principalComponents(reversed, rows, columns, k);
    for (int i = 0; i < k; ++i) {
        int largest = 0;
        for (int d = 1; d < columns; ++d)
            if (std::abs(axisEntry(pca, i, d)) > std::abs(axisEntry(pca, i, largest)))
                largest = d;
        QVERIFY2(axisEntry(pca, i, largest) > 0, qPrintable(QString("axis %1").arg(i)));
        for (int d = 0; d < columns; ++d) {
            QVERIFY(std::abs(axisEntry(fromNegated, i, d) - axisEntry(pca, i, d)) < 1e-9);
            QVERIFY(std::abs(axisEntry(fromReversed, i, d) - axisEntry(pca, i, d)) < 1e-9);
        }
        for (int r = 0; r < rows; ++r) {
            const double p = pca.projected[std::size_t(r * k + i)];
            QVERIFY(std::abs(fromNegated.projected[std::size_t(r * k + i)] + p) < 1e-9);
            QVERIFY(std::abs(fromReversed.projected[std::size_t((rows - 1 - r) * k + i)] - p) < 1e-9);
        }
    }
}

ATTNSCOPE_TEST(pca, TestPca)
#include "tst_pca.moc"
