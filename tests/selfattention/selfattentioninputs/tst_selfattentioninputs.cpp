#include "tests/common/testregistry.h"
#include "engine/selfattention/selfattentioninputs.h"

#include <QtTest>

#include <cmath>

namespace {

bool isTenth(double value)
{
    return std::abs(value * 10 - std::round(value * 10)) < 1e-12 && value >= -1 && value <= 1;
}

std::vector<double> row(const Matrix &m, int r)
{
    return {m.values.begin() + std::ptrdiff_t(r) * m.columns, m.values.begin() + std::ptrdiff_t(r + 1) * m.columns};
}

// Five words in 4-D whose variation lies mostly along the first two axes.
EmbeddingTable smallTable()
{
    EmbeddingTable table;
    table.words = {"<PAD>", "<UNK>", "cat", "dog", "sun"};
    table.dimensions = 4;
    table.values = {0, 0, 0, 0,
                    1, 0.1f, 0, 0,
                    -2, 1, 0.1f, 0,
                    3, -1, 0, 0.1f,
                    0, 2, 0, 0};
    return table;
}

} // namespace

class TestSelfAttentionInputs : public QObject
{
    Q_OBJECT

private slots:
    void randomValuesAreTenthsFromSeed();
    void repeatedWordHasEqualRows();
    void rowsDoNotDependOnOtherWords();
    void embeddingsLookUpWordsAndUnknown();
    void projectionKeepsGeometryAndRandomSpread();
};

void TestSelfAttentionInputs::randomValuesAreTenthsFromSeed()
{
    const SelfAttentionInputs a = SelfAttentionInputs::random({"I", "love", "AI"}, 4, 3, 5);
    QCOMPARE(a.x.rows, 3);
    QCOMPARE(a.x.columns, 4);
    for (const Matrix *w : {&a.wq, &a.wk, &a.wv}) {
        QCOMPARE(w->rows, 4);
        QCOMPARE(w->columns, 3);
    }
    for (const Matrix *m : {&a.x, &a.wq, &a.wk, &a.wv})
        for (double value : m->values)
            QVERIFY2(isTenth(value), qPrintable(QString::number(value)));
    QCOMPARE(a.known, std::vector<bool>(3, true));

    const SelfAttentionInputs same = SelfAttentionInputs::random({"I", "love", "AI"}, 4, 3, 5);
    QCOMPARE(same.x.values, a.x.values);
    QCOMPARE(same.wq.values, a.wq.values);
    const SelfAttentionInputs other = SelfAttentionInputs::random({"I", "love", "AI"}, 4, 3, 6);
    QVERIFY(other.x.values != a.x.values);
    QVERIFY(other.wq.values != a.wq.values);
    QVERIFY(a.wq.values != a.wk.values);  // three draws, not one matrix three times
}

void TestSelfAttentionInputs::repeatedWordHasEqualRows()
{
    const SelfAttentionInputs a = SelfAttentionInputs::random({"the", "cat", "the"}, 6, 3, 1);
    QCOMPARE(row(a.x, 0), row(a.x, 2));
    QVERIFY(row(a.x, 0) != row(a.x, 1));
}

void TestSelfAttentionInputs::rowsDoNotDependOnOtherWords()
{
    const SelfAttentionInputs short3 = SelfAttentionInputs::random({"I", "love", "AI"}, 3, 3, 9);
    const SelfAttentionInputs long5 = SelfAttentionInputs::random({"AI", "I", "love"}, 5, 3, 9);
    // Same word -> same first three numbers, whatever its position and d_model.
    for (int c = 0; c < 3; ++c) {
        QCOMPARE(long5.x.at(1, c), short3.x.at(0, c));
        QCOMPARE(long5.x.at(0, c), short3.x.at(2, c));
    }
}

void TestSelfAttentionInputs::embeddingsLookUpWordsAndUnknown()
{
    const EmbeddingTable table = smallTable();
    const SelfAttentionInputs a = SelfAttentionInputs::fromEmbeddings({"dog", "zebra", "cat"}, table, 2, 4);
    QCOMPARE(a.x.columns, 4);
    QCOMPARE(a.wq.rows, 4);
    QCOMPARE(a.wq.columns, 2);
    QCOMPARE(a.known, (std::vector<bool>{true, false, true}));
    QCOMPARE(a.x.at(0, 0), 3.0);
    QCOMPARE(a.x.at(1, 0), 1.0);  // <UNK>'s row
    QCOMPARE(a.x.at(2, 1), 1.0);
    // W comes from the seed as with random embeddings of the same shape.
    const SelfAttentionInputs random = SelfAttentionInputs::random({"x"}, 4, 2, 4);
    QCOMPARE(a.wv.values, random.wv.values);
}

void TestSelfAttentionInputs::projectionKeepsGeometryAndRandomSpread()
{
    const EmbeddingTable table = smallTable();
    const EmbeddingTable projected = SelfAttentionInputs::projectEmbeddings(table, 2);
    QCOMPARE(projected.words, table.words);
    QCOMPARE(projected.dimensions, 2);
    QCOMPARE(projected.values.size(), std::size_t(10));
    double sumSquares = 0;
    for (float v : projected.values)
        sumSquares += double(v) * v;
    QVERIFY(std::abs(std::sqrt(sumSquares / 10) - SelfAttentionInputs::randomRms()) < 1e-5);
    // Distances shrink by one common factor: the ratio of two distances survives the projection
    // (the discarded components hold only 0.1-sized wiggles).
    const auto distance = [](const EmbeddingTable &t, int a, int b) {
        double sum = 0;
        for (int c = 0; c < t.dimensions; ++c) {
            const double d = double(t.values[std::size_t(a * t.dimensions + c)]) - t.values[std::size_t(b * t.dimensions + c)];
            sum += d * d;
        }
        return std::sqrt(sum);
    };
    const double before = distance(table, 2, 3) / distance(table, 0, 4);
    const double after = distance(projected, 2, 3) / distance(projected, 0, 4);
    QVERIFY2(std::abs(after - before) / before < 0.01, qPrintable(QString("%1 vs %2").arg(before).arg(after)));
}

ATTNSCOPE_TEST(selfattentioninputs, TestSelfAttentionInputs)
#include "tst_selfattentioninputs.moc"
