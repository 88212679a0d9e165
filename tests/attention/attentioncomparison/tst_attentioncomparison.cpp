#include "tests/common/testregistry.h"
#include "engine/attention/attentioncomparison.h"
#include "engine/attention/seq2seqmodel.h"
#include "tests/common/tinymodel.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

// The difference of two attention matrices, and the attention a model gives along another's output.
class TestAttentionComparison : public QObject
{
    Q_OBJECT
private slots:
    void differenceIsBMinusACellByCell();
    void differentShapesAreRefused_data();
    void differentShapesAreRefused();
    void alongItsOwnOutputAModelGivesItsOwnAttention();
    void alongAnotherOutputEachRowIsADistribution();
    void identicalModelsDifferByZero();
    void otherWordsOrNoAttentionAreNamed();

private:
    static DecodedSentence matrix(int rows, int columns, std::vector<float> weights);
    static Seq2SeqModel model(std::uint64_t seed, AttentionKind kind = AttentionKind::Bahdanau);
};

DecodedSentence TestAttentionComparison::matrix(int rows, int columns, std::vector<float> weights)
{
    DecodedSentence s;
    for (int c = 0; c < columns; ++c)
        s.sourceTokens.push_back("w" + std::to_string(c));
    s.sourceKnown.assign(std::size_t(columns), true);
    for (int r = 0; r < rows; ++r)
        s.outputTokens.push_back("o" + std::to_string(r));
    s.outputCopied.assign(std::size_t(rows), false);
    s.attention = std::move(weights);
    return s;
}

Seq2SeqModel TestAttentionComparison::model(std::uint64_t seed, AttentionKind kind)
{
    ModelConfig config = tinyModelConfig();
    config.attention = kind;
    return Seq2SeqModel(config, Vocabulary({"red", "green", "blue", "cat", "dog"}), seed);
}

void TestAttentionComparison::differenceIsBMinusACellByCell()
{
    const DecodedSentence a = matrix(2, 3, {0.5f, 0.25f, 0.25f, 0.f, 1.f, 0.f});
    const DecodedSentence b = matrix(2, 3, {0.25f, 0.25f, 0.5f, 1.f, 0.f, 0.f});
    const std::vector<float> expected{-0.25f, 0.f, 0.25f, 1.f, -1.f, 0.f};
    QCOMPARE(attentionDifference(a, b), expected);
}

void TestAttentionComparison::differentShapesAreRefused_data()
{
    QTest::addColumn<int>("rows");
    QTest::addColumn<int>("columns");
    QTest::addColumn<bool>("withAttention");
    QTest::newRow("more rows") << 3 << 3 << true;
    QTest::newRow("more columns") << 2 << 4 << true;
    QTest::newRow("no attention") << 2 << 3 << false;
}

void TestAttentionComparison::differentShapesAreRefused()
{
    QFETCH(int, rows);
    QFETCH(int, columns);
    QFETCH(bool, withAttention);
    const DecodedSentence a = matrix(2, 3, std::vector<float>(6, 0.2f));
    const std::vector<float> weights =
        withAttention ? std::vector<float>(std::size_t(rows * columns), 0.2f) : std::vector<float>{};
    const DecodedSentence b = matrix(rows, columns, weights);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, attentionDifference(a, b));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, attentionDifference(b, a));
}

void TestAttentionComparison::alongItsOwnOutputAModelGivesItsOwnAttention()
{
    for (const AttentionKind kind : {AttentionKind::Bahdanau, AttentionKind::LuongGeneral}) {
        const Seq2SeqModel m = model(3, kind);
        const DecodedSentence own = m.reverse("red cat blue dog");
        const DecodedSentence along = decodeAlong(m, own);
        QCOMPARE(along.outputTokens, own.outputTokens);
        QCOMPARE(along.attention.size(), own.attention.size());
        // The one-sentence decoder is a faster path to the same numbers, up to float rounding.
        for (std::size_t i = 0; i < own.attention.size(); ++i)
            QVERIFY2(std::abs(along.attention[i] - own.attention[i]) < 1e-5f, attentionName(kind));
    }
}

void TestAttentionComparison::alongAnotherOutputEachRowIsADistribution()
{
    const Seq2SeqModel a = model(3);
    const Seq2SeqModel b = model(4);
    const DecodedSentence fromA = a.reverse("green green cat");
    const DecodedSentence bAlongA = decodeAlong(b, fromA);
    QCOMPARE(bAlongA.rows(), fromA.rows());
    QCOMPARE(bAlongA.columns(), fromA.columns());
    QVERIFY(bAlongA.attention != fromA.attention);
    for (int row = 0; row < bAlongA.rows(); ++row) {
        const auto first = bAlongA.attention.begin() + row * bAlongA.columns();
        QVERIFY(std::abs(std::accumulate(first, first + bAlongA.columns(), 0.0) - 1.0) < 1e-5);
    }
}

void TestAttentionComparison::identicalModelsDifferByZero()
{
    const Seq2SeqModel a = model(5);
    const Seq2SeqModel b = a.clone();
    const AttentionComparison c = compareAttention(a, b, "dog red blue");
    QVERIFY(c.problem.empty());
    QVERIFY(c.sameOutput());
    QCOMPARE(c.difference.size(), std::size_t(c.a.rows() * c.a.columns()));
    QVERIFY(std::all_of(c.difference.begin(), c.difference.end(), [](float d) { return d == 0.f; }));

    const Seq2SeqModel other = model(6);
    const AttentionComparison d = compareAttention(a, other, "dog red blue");
    QVERIFY(std::any_of(d.difference.begin(), d.difference.end(), [](float x) { return x != 0.f; }));
}

void TestAttentionComparison::otherWordsOrNoAttentionAreNamed()
{
    const Seq2SeqModel a = model(5);
    const Seq2SeqModel otherWords(tinyModelConfig(), Vocabulary({"sun", "moon"}), 5);
    const AttentionComparison words = compareAttention(a, otherWords, "red cat");
    QVERIFY(words.problem.find("different words") != std::string::npos);
    QVERIFY(words.difference.empty());
    QCOMPARE(words.b.rows() > 0, true);  // each model's own output is still there

    const AttentionComparison none = compareAttention(a, model(5, AttentionKind::None), "red cat");
    QVERIFY(none.problem.find("without attention") != std::string::npos);
    QVERIFY(none.difference.empty());
}

ATTNSCOPE_TEST(attentioncomparison, TestAttentionComparison)
#include "tst_attentioncomparison.moc"
