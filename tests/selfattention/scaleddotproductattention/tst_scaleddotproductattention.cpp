#include "tests/common/testregistry.h"
#include "engine/selfattention/scaleddotproductattention.h"
#include "engine/selfattention/selfattentioninputs.h"

#include <QtTest>

#include <cmath>
#include <stdexcept>

namespace {

Matrix identity(int n)
{
    Matrix m(n, n);
    for (int i = 0; i < n; ++i)
        m.at(i, i) = 1;
    return m;
}

double dot(const Matrix &a, int rowA, const Matrix &b, int rowB)
{
    double sum = 0;
    for (int c = 0; c < a.columns; ++c)
        sum += a.at(rowA, c) * b.at(rowB, c);
    return sum;
}

} // namespace

class TestScaledDotProductAttention : public QObject
{
    Q_OBJECT

private slots:
    void handComputedExample();
    void weightRowsSumToOne_data();
    void weightRowsSumToOne();
    void scoresAreDividedBySqrtDk_data();
    void scoresAreDividedBySqrtDk();
    void softmaxIsStableForLargeScores();
    void mismatchedShapesThrow();
};

// X = | 1 0 1 |   W_Q = I,  W_K swaps the first two dimensions,  W_V = I.
//     | 0 1 0 |
//     | 1 1 0 |
// Q = X;  K = X W_K = | 0 1 1 |   Q Kᵀ = | 1 1 1 |   (row i: q_i · k_j)
//                     | 1 0 0 |          | 1 0 1 |
//                     | 1 1 0 |          | 1 1 2 |
// scores = Q Kᵀ / √3.  Row 0: all equal, so 1/3 each.
// Row 1: a = e^(1/√3) = 1.78131; a / (2a + 1) = 0.39041, 1 / (2a + 1) = 0.21917.
// Row 2: minus the row maximum, b = e^(-1/√3) = 0.56138; b / (2b + 1) = 0.26446, 1 / (2b + 1) = 0.47108.
// V = X, so output row 1 = 0.39041·(1,0,1) + 0.21917·(0,1,0) + 0.39041·(1,1,0) = (0.78082, 0.60958, 0.39041).
void TestScaledDotProductAttention::handComputedExample()
{
    const Matrix x = Matrix::fromRows({{1, 0, 1}, {0, 1, 0}, {1, 1, 0}});
    const Matrix wk = Matrix::fromRows({{0, 1, 0}, {1, 0, 0}, {0, 0, 1}});
    const ScaledDotProductAttention a = ScaledDotProductAttention::compute(x, identity(3), wk, identity(3));

    QCOMPARE(a.tokens(), 3);
    QCOMPARE(a.dModel(), 3);
    QCOMPARE(a.dK(), 3);
    QCOMPARE(a.k.values, Matrix::fromRows({{0, 1, 1}, {1, 0, 0}, {1, 1, 0}}).values);
    const double root3 = std::sqrt(3.0);
    QCOMPARE(a.scores.at(2, 2), 2 / root3);
    QCOMPARE(a.scores.at(1, 1), 0.0);

    const double expected[3][3] = {{1.0 / 3, 1.0 / 3, 1.0 / 3},
                                   {0.39041, 0.21917, 0.39041},
                                   {0.26446, 0.26446, 0.47108}};
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c)
            QVERIFY2(std::abs(a.weights.at(r, c) - expected[r][c]) < 1e-5,
                     qPrintable(QString("weight (%1, %2) = %3").arg(r).arg(c).arg(a.weights.at(r, c))));
    const double expectedOutput[3] = {0.78082, 0.60958, 0.39041};
    for (int c = 0; c < 3; ++c)
        QVERIFY(std::abs(a.output.at(1, c) - expectedOutput[c]) < 1e-5);
    QVERIFY(std::abs(a.output.at(0, 0) - 2.0 / 3) < 1e-12);
}

void TestScaledDotProductAttention::weightRowsSumToOne_data()
{
    QTest::addColumn<int>("tokens");
    QTest::addColumn<int>("dModel");
    QTest::addColumn<int>("dK");
    QTest::addColumn<int>("seed");
    QTest::newRow("3 words, 3x3") << 3 << 3 << 3 << 1;
    QTest::newRow("1 word") << 1 << 4 << 3 << 2;
    QTest::newRow("8 words, 8x5") << 8 << 8 << 5 << 7;
    QTest::newRow("5 words, 3x8") << 5 << 3 << 8 << 42;
}

void TestScaledDotProductAttention::weightRowsSumToOne()
{
    QFETCH(int, tokens);
    QFETCH(int, dModel);
    QFETCH(int, dK);
    QFETCH(int, seed);
    std::vector<std::string> words;
    for (int i = 0; i < tokens; ++i)
        words.push_back("w" + std::to_string(i));
    const SelfAttentionInputs in = SelfAttentionInputs::random(words, dModel, dK, std::uint64_t(seed));
    const ScaledDotProductAttention a = ScaledDotProductAttention::compute(in.x, in.wq, in.wk, in.wv);
    QCOMPARE(a.weights.rows, tokens);
    QCOMPARE(a.weights.columns, tokens);
    QCOMPARE(a.output.rows, tokens);
    QCOMPARE(a.output.columns, dK);
    for (int r = 0; r < tokens; ++r) {
        double sum = 0;
        for (int c = 0; c < tokens; ++c) {
            QVERIFY(a.weights.at(r, c) > 0);
            sum += a.weights.at(r, c);
        }
        QVERIFY2(std::abs(sum - 1) < 1e-12, qPrintable(QString("row %1 sums to %2").arg(r).arg(sum, 0, 'g', 17)));
    }
}

void TestScaledDotProductAttention::scoresAreDividedBySqrtDk_data()
{
    QTest::addColumn<int>("dK");
    for (int dK : {3, 4, 8})
        QTest::addRow("d_k=%d", dK) << dK;
}

void TestScaledDotProductAttention::scoresAreDividedBySqrtDk()
{
    QFETCH(int, dK);
    const SelfAttentionInputs in = SelfAttentionInputs::random({"I", "love", "AI"}, 5, dK, 3);
    const ScaledDotProductAttention a = ScaledDotProductAttention::compute(in.x, in.wq, in.wk, in.wv);
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            QVERIFY(std::abs(a.scores.at(i, j) * std::sqrt(double(dK)) - dot(a.q, i, a.k, j)) < 1e-12);
    // The softmax sees the scaled scores: weights of row 0 follow from them directly.
    double sum = 0;
    for (int j = 0; j < 3; ++j)
        sum += std::exp(a.scores.at(0, j));
    QVERIFY(std::abs(a.weights.at(0, 1) - std::exp(a.scores.at(0, 1)) / sum) < 1e-12);
}

void TestScaledDotProductAttention::softmaxIsStableForLargeScores()
{
    const Matrix weights = softmaxRows(Matrix::fromRows({{1000, 1001, 1000}, {-1000, -1000, -1000}}));
    const double e = std::exp(1.0);
    QVERIFY(std::abs(weights.at(0, 1) - e / (e + 2)) < 1e-12);
    QVERIFY(std::abs(weights.at(0, 0) - 1 / (e + 2)) < 1e-12);
    for (int c = 0; c < 3; ++c)
        QVERIFY(std::abs(weights.at(1, c) - 1.0 / 3) < 1e-12);
}

void TestScaledDotProductAttention::mismatchedShapesThrow()
{
    const Matrix x(2, 3);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, ScaledDotProductAttention::compute(x, Matrix(4, 2), Matrix(3, 2), Matrix(3, 2)));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, ScaledDotProductAttention::compute(x, Matrix(3, 2), Matrix(3, 3), Matrix(3, 2)));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, ScaledDotProductAttention::compute(Matrix(0, 3), Matrix(3, 2), Matrix(3, 2), Matrix(3, 2)));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, Matrix::fromRows({{1, 2}, {3}}));
}

ATTNSCOPE_TEST(scaleddotproductattention, TestScaledDotProductAttention)
#include "tst_scaleddotproductattention.moc"
