#include "tests/common/testregistry.h"
#include "engine/charlm/chartext.h"
#include "engine/charlm/ngrambaseline.h"

#include <QtTest>

#include <cmath>

// The n-gram baseline: bits per character of add-k counting on strings short enough to count by
// hand, and the split it is measured on.
class TestNgramBaseline : public QObject
{
    Q_OBJECT
private slots:
    void bitsPerCharCountedByHand_data();
    void bitsPerCharCountedByHand();
    void unseenContextsAreUniform();
    void refusesBadSettings();
    void baselineIsMeasuredOnTheValidationTail();
    void baselineWithoutValidationIsOnTraining();
};

void TestNgramBaseline::bitsPerCharCountedByHand_data()
{
    // Fitted on "aab" (a = 0, b = 1, V = 2), measured on "ab".
    QTest::addColumn<int>("order");
    QTest::addColumn<double>("k");
    QTest::addColumn<double>("expected");
    // Order 1: a twice, b once in three: P(a) = (2 + k) / (3 + 2k), P(b) = (1 + k) / (3 + 2k).
    QTest::newRow("order 1, k = 1") << 1 << 1.0 << -(std::log2(3 / 5.0) + std::log2(2 / 5.0)) / 2;
    QTest::newRow("order 1, k = 0.1") << 1 << 0.1 << -(std::log2(2.1 / 3.2) + std::log2(1.1 / 3.2)) / 2;
    // Order 2: at the start (no context) a once; after a: a once, b once.
    // P(a | start) = (1 + 1) / (1 + 2), P(b | a) = (1 + 1) / (2 + 2).
    QTest::newRow("order 2, k = 1") << 2 << 1.0 << -(std::log2(2 / 3.0) + std::log2(2 / 4.0)) / 2;
    // Order 3: at the start a once; after the lone "a" at the start a once; after "aa" b once.
    // P(a | start) = 2 / 3; P(b | "a" at the start) = (0 + 1) / (1 + 2).
    QTest::newRow("order 3, k = 1") << 3 << 1.0 << -(std::log2(2 / 3.0) + std::log2(1 / 3.0)) / 2;
    // k = 0.5: P(a | start) = 1.5 / 2, P(b | "a" at the start) = 0.5 / 2.
    QTest::newRow("order 3, k = 0.5") << 3 << 0.5 << -(std::log2(1.5 / 2) + std::log2(0.5 / 2)) / 2;
}

void TestNgramBaseline::bitsPerCharCountedByHand()
{
    QFETCH(int, order);
    QFETCH(double, k);
    QFETCH(double, expected);
    CharNgramModel model(order, k, 2);
    const std::vector<int32_t> train{0, 0, 1}, measured{0, 1};
    model.fit(train.data(), int64_t(train.size()));
    QCOMPARE(model.order(), order);
    const double bits = model.bitsPerChar(measured.data(), int64_t(measured.size()));
    QVERIFY2(std::abs(bits - expected) < 1e-12, qPrintable(QString("%1 bits, expected %2").arg(bits).arg(expected)));
}

void TestNgramBaseline::unseenContextsAreUniform()
{
    // Fitted on "abab", measured on "cd": c at the start, where only a was seen, has
    // P = k / (1 + 4k); nothing ever followed c, so P(d | c) = k / 4k = 1/4.
    CharNgramModel model(2, 0.5, 4);
    const std::vector<int32_t> train{0, 1, 0, 1}, measured{2, 3};
    model.fit(train.data(), 4);
    const double pStart = 0.5 / (1 + 2.0);
    QVERIFY(std::abs(model.bitsPerChar(measured.data(), 2) - -(std::log2(pStart) + std::log2(0.25)) / 2) < 1e-12);
    QVERIFY(std::isnan(model.bitsPerChar(measured.data(), 0)));
}

void TestNgramBaseline::refusesBadSettings()
{
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, CharNgramModel(0, 0.1, 3));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, CharNgramModel(6, 0.1, 3));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, CharNgramModel(2, 0, 3));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, CharNgramModel(2, -1, 3));
    CharNgramModel model(2, 0.1, 3);
    const std::vector<int32_t> outside{0, 3};
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, model.fit(outside.data(), 2));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, model.bitsPerChar(outside.data(), 2));
}

void TestNgramBaseline::baselineIsMeasuredOnTheValidationTail()
{
    std::string utf8;
    for (int i = 0; i < 400; ++i)
        utf8 += i % 7 == 3 ? "the cat sat. " : "a dog ran far; ";
    const CharText text = buildCharText(utf8, 0.1, 16);
    QVERIFY(text.validationLength() > 0);
    const NgramBaseline baseline = ngramBaseline(text, 0.2);
    QCOMPARE(baseline.addK, 0.2);
    QVERIFY(!baseline.onTraining);
    QCOMPARE(baseline.bitsPerChar.size(), std::size_t(5));
    for (int order = 1; order <= 5; ++order) {
        CharNgramModel model(order, 0.2, text.alphabetSize());
        model.fit(text.ids.data(), text.trainLength);
        QCOMPARE(baseline.bitsPerChar[std::size_t(order - 1)],
                 model.bitsPerChar(text.ids.data() + text.trainLength, text.validationLength()));
    }
    const auto lowest = std::min_element(baseline.bitsPerChar.begin(), baseline.bitsPerChar.end());
    QCOMPARE(baseline.bestOrder, int(lowest - baseline.bitsPerChar.begin()) + 1);
    QCOMPARE(baseline.best(), *lowest);
    // A text this regular is predicted far better with context than without.
    QVERIFY(baseline.best() < baseline.bitsPerChar[0] / 3);
}

void TestNgramBaseline::baselineWithoutValidationIsOnTraining()
{
    const CharText text = buildCharText("The quick brown fox jumps over the lazy dog.", 0.05, 64);
    QCOMPARE(text.validationLength(), int64_t(0));
    const NgramBaseline baseline = ngramBaseline(text);
    QVERIFY(baseline.onTraining);
    CharNgramModel model(3, 0.1, text.alphabetSize());
    model.fit(text.ids.data(), text.length());
    QCOMPARE(baseline.bitsPerChar[2], model.bitsPerChar(text.ids.data(), text.length()));
    // Counting memorises: order 5 on its own training text is far below order 1.
    QVERIFY(baseline.bitsPerChar[4] < baseline.bitsPerChar[0] / 2);
}

ATTNSCOPE_TEST(ngrambaseline, TestNgramBaseline)
#include "tst_ngrambaseline.moc"
