#include "tests/common/testregistry.h"
#include "engine/core/rankcorrelation.h"

#include <QtTest>

#include <cmath>

// Spearman's rank correlation on rankings whose value is worked out by hand, and the cases where
// it is undefined, which must say so (NaN) rather than pass for "no correlation".
class TestRankCorrelation : public QObject
{
    Q_OBJECT
private slots:
    void knownRankings_data();
    void knownRankings();
    void undefinedCases_data();
    void undefinedCases();
};

void TestRankCorrelation::knownRankings_data()
{
    QTest::addColumn<QVector<double>>("a");
    QTest::addColumn<QVector<double>>("b");
    QTest::addColumn<double>("expected");
    QTest::newRow("same order, other scale") << QVector<double>{1, 2, 3, 4} << QVector<double>{10, 200, 3000, 40000} << 1.0;
    QTest::newRow("reversed") << QVector<double>{1, 2, 3, 4} << QVector<double>{4, 3, 2, 1} << -1.0;
    // d = (0, 0, 1, -1): 1 - 6 * 2 / (4 * 15) = 0.8.
    QTest::newRow("one swap") << QVector<double>{1, 2, 3, 4} << QVector<double>{1, 2, 4, 3} << 0.8;
    // Ties take their mean rank: b's ranks are 1.5, 1.5, 3, 4; Pearson of the ranks.
    QTest::newRow("tie") << QVector<double>{1, 2, 3, 4} << QVector<double>{5, 5, 6, 7} << 0.9486832980505138;
    // Ranks (2, 1, 3) against (1, 3, 2): covariance -0.5 over variance 2 on each side.
    QTest::newRow("unsorted") << QVector<double>{0.5, -1, 7} << QVector<double>{-3, 9, 8} << -0.5;
    QTest::newRow("two values") << QVector<double>{1, 2} << QVector<double>{3, 1} << -1.0;
}

void TestRankCorrelation::knownRankings()
{
    QFETCH(QVector<double>, a);
    QFETCH(QVector<double>, b);
    QFETCH(double, expected);
    const double rho = spearmanCorrelation(std::vector<double>(a.begin(), a.end()), std::vector<double>(b.begin(), b.end()));
    QVERIFY2(std::abs(rho - expected) < 1e-12, qPrintable(QString::number(rho, 'g', 17)));
}

void TestRankCorrelation::undefinedCases_data()
{
    QTest::addColumn<QVector<double>>("a");
    QTest::addColumn<QVector<double>>("b");
    QTest::newRow("constant") << QVector<double>{1, 2, 3} << QVector<double>{2, 2, 2};
    QTest::newRow("both constant") << QVector<double>{0, 0, 0} << QVector<double>{1, 1, 1};
    QTest::newRow("one value") << QVector<double>{1} << QVector<double>{2};
    QTest::newRow("no values") << QVector<double>{} << QVector<double>{};
    QTest::newRow("different sizes") << QVector<double>{1, 2, 3} << QVector<double>{1, 2};
}

void TestRankCorrelation::undefinedCases()
{
    QFETCH(QVector<double>, a);
    QFETCH(QVector<double>, b);
    QVERIFY(std::isnan(spearmanCorrelation(std::vector<double>(a.begin(), a.end()),
                                           std::vector<double>(b.begin(), b.end()))));
}

ATTNSCOPE_TEST(rankcorrelation, TestRankCorrelation)
#include "tst_rankcorrelation.moc"
