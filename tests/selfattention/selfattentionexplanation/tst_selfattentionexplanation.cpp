#include "tests/common/testregistry.h"
#include "engine/selfattention/selfattentionexplanation.h"
#include "engine/selfattention/selfattentioninputs.h"

#include <QtTest>

#include <cmath>
#include <stdexcept>

// explainSelfAttention against the explorer's own matrices (ScaledDotProductAttention::compute).
class TestSelfAttentionExplanation : public QObject
{
    Q_OBJECT
private slots:
    void matchesTheExplorersMatrices_data();
    void matchesTheExplorersMatrices();
    void rejectsCellsOutsideTheMatrix();
};

void TestSelfAttentionExplanation::matchesTheExplorersMatrices_data()
{
    QTest::addColumn<int>("dModel");
    QTest::addColumn<int>("dK");
    QTest::addColumn<int>("seed");
    QTest::newRow("d_k 3") << 4 << 3 << 1;
    QTest::newRow("d_k 1") << 2 << 1 << 7;
    QTest::newRow("d_k 8") << 8 << 8 << 42;
}

void TestSelfAttentionExplanation::matchesTheExplorersMatrices()
{
    QFETCH(int, dModel);
    QFETCH(int, dK);
    QFETCH(int, seed);
    const SelfAttentionInputs inputs =
        SelfAttentionInputs::random({"i", "love", "ai", "and", "i", "mean", "it"}, dModel, dK, std::uint64_t(seed));
    const ScaledDotProductAttention a = ScaledDotProductAttention::compute(inputs.x, inputs.wq, inputs.wk, inputs.wv);
    const int n = a.tokens();
    for (int i = 0; i < n; ++i) {
        std::vector<double> output(std::size_t(dK), 0.0);
        for (int j = 0; j < n; ++j) {
            const ScaledDotExplanation e = explainSelfAttention(a, i, j);
            QCOMPARE(int(e.q.size()), dK);
            QCOMPARE(int(e.products.size()), dK);
            double dot = 0;
            for (int m = 0; m < dK; ++m) {
                QCOMPARE(e.q[std::size_t(m)], a.q.at(i, m));
                QCOMPARE(e.k[std::size_t(m)], a.k.at(j, m));
                dot += a.q.at(i, m) * a.k.at(j, m);
            }
            QVERIFY(std::abs(e.dot - dot) < 1e-12);
            QCOMPARE(e.scale, std::sqrt(double(dK)));
            QVERIFY(std::abs(e.score() - dot / std::sqrt(double(dK))) < 1e-12);
            QVERIFY(std::abs(e.score() - a.scores.at(i, j)) < 1e-12);
            double sum = 0;
            for (int k = 0; k < n; ++k) {
                QVERIFY(std::abs(e.weights[std::size_t(k)] - a.weights.at(i, k)) < 1e-12);
                sum += e.weights[std::size_t(k)];
            }
            QVERIFY(std::abs(sum - 1.0) < 1e-12);
            QVERIFY(std::abs(e.weight() - a.weights.at(i, j)) < 1e-12);
            for (int m = 0; m < dK; ++m) {
                QVERIFY(std::abs(e.share[std::size_t(m)] - a.weights.at(i, j) * a.v.at(j, m)) < 1e-12);
                QVERIFY(std::abs(e.output[std::size_t(m)] - a.output.at(i, m)) < 1e-12);
                output[std::size_t(m)] += e.share[std::size_t(m)];
            }
        }
        for (int m = 0; m < dK; ++m)
            QVERIFY(std::abs(output[std::size_t(m)] - a.output.at(i, m)) < 1e-12);
    }
}

void TestSelfAttentionExplanation::rejectsCellsOutsideTheMatrix()
{
    const SelfAttentionInputs inputs = SelfAttentionInputs::random({"i", "love", "ai"}, 4, 3, 1);
    const ScaledDotProductAttention a = ScaledDotProductAttention::compute(inputs.x, inputs.wq, inputs.wk, inputs.wv);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, explainSelfAttention(a, 3, 0));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, explainSelfAttention(a, 0, -1));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, explainSelfAttention(ScaledDotProductAttention(), 0, 0));
}

ATTNSCOPE_TEST(selfattentionexplanation, TestSelfAttentionExplanation)
#include "tst_selfattentionexplanation.moc"
