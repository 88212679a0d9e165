#include "tests/common/testregistry.h"
#include "engine/word2vec/noisedistribution.h"

#include <QtTest>

#include <cmath>
#include <random>
#include <stdexcept>

// The noise words' distribution (count^exponent, by the alias method) and the subsampling
// keep probability.
class TestNoiseDistribution : public QObject
{
    Q_OBJECT
private slots:
    void tableFollowsCountPower_data();
    void tableFollowsCountPower();
    void drawsFollowTheDistribution();
    void refusesNoWords();
    void keepProbability_data();
    void keepProbability();
};

void TestNoiseDistribution::tableFollowsCountPower_data()
{
    QTest::addColumn<double>("exponent");
    QTest::newRow("word2vec's 0.75") << 0.75;
    QTest::newRow("0: uniform") << 0.0;
    QTest::newRow("1: the unigram counts") << 1.0;
    QTest::newRow("0.5") << 0.5;
}

void TestNoiseDistribution::tableFollowsCountPower()
{
    QFETCH(double, exponent);
    const std::vector<int64_t> counts = {5000, 1200, 300, 41, 7, 1, 1};
    const NoiseDistribution noise(counts, exponent);

    double total = 0;
    for (int64_t c : counts)
        total += std::pow(double(c), exponent);
    for (size_t w = 0; w < counts.size(); ++w) {
        const double expected = std::pow(double(counts[w]), exponent) / total;
        QVERIFY(std::abs(noise.probabilities()[w] - expected) < 1e-12);
        // The alias tables give each word its probability to within their 32-bit rounding.
        QVERIFY2(std::abs(noise.drawProbability(int(w)) - expected) < 1e-9,
                 qPrintable(QString("word %1: drawn with p = %2, not %3").arg(w).arg(noise.drawProbability(int(w))).arg(expected)));
    }
    if (exponent == 0)
        QCOMPARE(noise.probabilities().front(), noise.probabilities().back());
    if (exponent == 1)
        QVERIFY(std::abs(noise.probabilities()[0] / noise.probabilities()[2] - 5000.0 / 300.0) < 1e-9);
}

// Draws from random numbers follow the distribution: a chi-square test over a million draws.
void TestNoiseDistribution::drawsFollowTheDistribution()
{
    const std::vector<int64_t> counts = {5000, 1200, 300, 41, 7, 1, 1, 0};
    const NoiseDistribution noise(counts, 0.75);
    std::vector<int64_t> drawn(counts.size(), 0);
    std::mt19937_64 random(7);
    const int draws = 1000000;
    for (int i = 0; i < draws; ++i)
        ++drawn[size_t(noise.draw(random()))];
    QCOMPARE(drawn.back(), int64_t(0));  // a word never seen is never noise
    double chiSquare = 0;
    for (size_t w = 0; w + 1 < counts.size(); ++w) {
        const double expected = noise.probabilities()[w] * draws;
        chiSquare += (double(drawn[w]) - expected) * (double(drawn[w]) - expected) / expected;
    }
    // 6 degrees of freedom: 22.46 is the 0.999 quantile.
    QVERIFY2(chiSquare < 22.46, qPrintable(QString("chi-square %1").arg(chiSquare)));
}

void TestNoiseDistribution::refusesNoWords()
{
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, NoiseDistribution({}, 0.75));
}

void TestNoiseDistribution::keepProbability_data()
{
    QTest::addColumn<qint64>("count");
    QTest::addColumn<qint64>("total");
    QTest::addColumn<double>("threshold");
    QTest::addColumn<double>("expected");
    // (sqrt(f / t) + 1) * t / f with f = count / total, at most 1.
    QTest::newRow("f = 0.01, t = 1e-3") << qint64(100) << qint64(10000) << 1e-3 << (std::sqrt(10.0) + 1) * 0.1;
    QTest::newRow("f = 0.1, t = 1e-4") << qint64(1000) << qint64(10000) << 1e-4 << (std::sqrt(1000.0) + 1) * 1e-3;
    QTest::newRow("f = t keeps all") << qint64(1) << qint64(1000) << 1e-3 << 1.0;
    QTest::newRow("rare words are kept") << qint64(1) << qint64(100000) << 1e-3 << 1.0;
    QTest::newRow("f = 4t: (2 + 1) / 4") << qint64(4) << qint64(1000) << 1e-3 << 0.75;
    QTest::newRow("f = 2.5t: 1.03 capped at 1") << qint64(25) << qint64(10000) << 1e-3 << 1.0;
    QTest::newRow("t = 0 is off") << qint64(5000) << qint64(10000) << 0.0 << 1.0;
    QTest::newRow("the whole corpus one word") << qint64(10) << qint64(10) << 1e-3 << (std::sqrt(1000.0) + 1) * 1e-3;
}

void TestNoiseDistribution::keepProbability()
{
    QFETCH(qint64, count);
    QFETCH(qint64, total);
    QFETCH(double, threshold);
    QFETCH(double, expected);
    QVERIFY(std::abs(::keepProbability(count, total, threshold) - expected) < 1e-12);
}

ATTNSCOPE_TEST(noisedistribution, TestNoiseDistribution)
#include "tst_noisedistribution.moc"
