#include "tests/common/testregistry.h"
#include "engine/charlm/hiddenunits.h"

#include <QtTest>

#include <random>

// The text features units are measured against, and the ranking that finds a unit tracking one.
class TestHiddenUnits : public QObject
{
    Q_OBJECT
private slots:
    void featuresOfAKnownText_data();
    void featuresOfAKnownText();
    void unitMadeToTrackAFeatureRanksFirst();
    void constantFeaturesAndUnitsAreSkipped();
};

void TestHiddenUnits::featuresOfAKnownText_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("feature");
    QTest::addColumn<std::vector<double>>("expected");
    const QString text = "a \"b\"(c)\nd";
    QTest::newRow("position in line") << text << int(TextFeature::PositionInLine)
                                      << std::vector<double>{1, 2, 3, 4, 5, 6, 7, 8, 0, 1};
    QTest::newRow("inside quotes") << text << int(TextFeature::InsideQuotes)
                                   << std::vector<double>{0, 0, 1, 1, 0, 0, 0, 0, 0, 0};
    QTest::newRow("inside brackets") << text << int(TextFeature::InsideBrackets)
                                     << std::vector<double>{0, 0, 0, 0, 0, 1, 1, 0, 0, 0};
    QTest::newRow("after a space") << text << int(TextFeature::AfterSpace)
                                   << std::vector<double>{0, 1, 0, 0, 0, 0, 0, 0, 1, 0};
    QTest::newRow("typographic quotes") << QString::fromUtf8("\u201Cx\u201D \u00ABy\u00BB") << int(TextFeature::InsideQuotes)
                                        << std::vector<double>{1, 1, 0, 0, 1, 1, 0};
    QTest::newRow("nested and stray brackets") << ")a([b)c]d" << int(TextFeature::InsideBrackets)
                                               << std::vector<double>{0, 0, 1, 1, 1, 1, 1, 0, 0};
}

void TestHiddenUnits::featuresOfAKnownText()
{
    QFETCH(QString, text);
    QFETCH(int, feature);
    QFETCH(std::vector<double>, expected);
    const std::u32string u32 = text.toStdU32String();
    QCOMPARE(textFeature(u32, TextFeature(feature)), expected);
}

namespace {

CharReadout readoutOf(const std::u32string &text, int layers, int hidden)
{
    CharReadout r;
    r.text = text;
    r.layers = layers;
    r.hidden = hidden;
    r.activations.assign(text.size() * std::size_t(layers) * std::size_t(hidden), 0.0f);
    r.unknown.assign(text.size(), false);
    r.next.resize(text.size());
    return r;
}

float &at(CharReadout &r, std::size_t position, int layer, int unit)
{
    return r.activations[(position * std::size_t(r.layers) + std::size_t(layer)) * std::size_t(r.hidden) + std::size_t(unit)];
}

}

void TestHiddenUnits::unitMadeToTrackAFeatureRanksFirst()
{
    std::u32string text;
    for (int i = 0; i < 12; ++i)
        text += i % 3 == 0 ? U"she said \"hi\" (twice)\n" : i % 3 == 1 ? U"and [then] left\n" : U"no one \"came\" back at all\n";
    CharReadout readout = readoutOf(text, 2, 4);
    const std::vector<double> line = textFeature(text, TextFeature::PositionInLine);
    const std::vector<double> quotes = textFeature(text, TextFeature::InsideQuotes);
    std::mt19937 random(3);
    std::uniform_real_distribution<float> noise(-1, 1);
    for (std::size_t p = 0; p < text.size(); ++p) {
        for (int layer = 0; layer < 2; ++layer)
            for (int unit = 0; unit < 4; ++unit)
                at(readout, p, layer, unit) = noise(random);
        at(readout, p, 1, 2) = float(line[p]) * 0.1f - 0.5f;  // tracks the position exactly
        at(readout, p, 0, 1) = -2.0f * float(quotes[p]) + 0.3f * noise(random);  // against quotes, with noise
        at(readout, p, 0, 0) = 0.5f;  // constant: no correlation to speak of
    }
    // A character the model did not read: what the unit holds there does not count.
    readout.unknown[7] = true;
    at(readout, 7, 1, 2) = 1000;

    const std::vector<UnitScore> ranked = rankUnits(readout, 100);
    QCOMPARE(ranked.size(), std::size_t(7));
    QCOMPARE(ranked[0].layer, 1);
    QCOMPARE(ranked[0].unit, 2);
    QCOMPARE(ranked[0].feature, TextFeature::PositionInLine);
    QVERIFY(std::abs(ranked[0].correlation - 1) < 1e-9);
    QCOMPARE(ranked[1].layer, 0);
    QCOMPARE(ranked[1].unit, 1);
    QCOMPARE(ranked[1].feature, TextFeature::InsideQuotes);
    QVERIFY(ranked[1].correlation < -0.9);
    for (std::size_t i = 2; i < ranked.size(); ++i) {
        QVERIFY(std::abs(ranked[i].correlation) < 0.3);
        QVERIFY(std::abs(ranked[i].correlation) <= std::abs(ranked[i - 1].correlation));
        QVERIFY(!(ranked[i].layer == 0 && ranked[i].unit == 0));
    }
    QCOMPARE(rankUnits(readout, 2).size(), std::size_t(2));
    QCOMPARE(rankUnits(readout, 2)[0].unit, 2);
}

void TestHiddenUnits::constantFeaturesAndUnitsAreSkipped()
{
    // No quotes and no brackets: only the position in the line and spaces vary.
    const std::u32string text = U"one two\nthree four five\nsix\n";
    CharReadout readout = readoutOf(text, 1, 3);
    std::mt19937 random(5);
    std::uniform_real_distribution<float> noise(-1, 1);
    for (std::size_t p = 0; p < text.size(); ++p)
        for (int unit = 0; unit < 3; ++unit)
            at(readout, p, 0, unit) = noise(random);
    for (const UnitScore &score : rankUnits(readout, 10)) {
        QVERIFY(score.feature == TextFeature::PositionInLine || score.feature == TextFeature::AfterSpace);
        QVERIFY(std::isfinite(score.correlation));
    }
    QCOMPARE(rankUnits(readout, 10).size(), std::size_t(3));
    QVERIFY(rankUnits(readoutOf(text, 1, 3), 10).empty());  // every unit constant
    QVERIFY(rankUnits(readout, 0).empty());
}

ATTNSCOPE_TEST(hiddenunits, TestHiddenUnits)
#include "tst_hiddenunits.moc"
