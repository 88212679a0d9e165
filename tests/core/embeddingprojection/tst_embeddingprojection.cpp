#include "tests/common/testregistry.h"
#include "engine/core/embeddingprojection.h"
#include "engine/core/pca.h"

#include <QtTest>

#include <cmath>

namespace {

// Hand-made 3-d embeddings. Cosine similarities to "cat" (1, 0.1, 0): dog 0.99, fox 0.80,
// bus 0.21, car 0.10, tree 0.00, sky -0.10. <EOS> points exactly like "cat" (similarity 1), so it
// would come first if special tokens were not left out of the neighbours; <PAD> and <EOS> lie far
// from the words and would take over a component if they were fitted.
EmbeddingTable table()
{
    EmbeddingTable t;
    t.words = {"<PAD>", "<SOS>", "<EOS>", "<UNK>", "cat", "dog", "car", "bus", "tree", "fox", "sky"};
    t.dimensions = 3;
    t.values = {
        -9, -9, 0,         // <PAD>
        0.3f, 0.3f, 0.3f,  // <SOS>
        20, 2, 0,          // <EOS>
        -0.2f, 0.1f, 0.4f, // <UNK>
        1, 0.1f, 0,        // cat
        0.9f, 0.2f, 0,     // dog
        0, 1, 0.1f,        // car
        0.1f, 0.9f, 0,     // bus
        0, 0, 1,           // tree
        0.8f, 0, 0.6f,     // fox
        0, -1, 0,          // sky
    };
    return t;
}

const int kFirstWord = 4;
const int kCat = 4;

const float *rowOf(const EmbeddingTable &t, int row)
{
    return t.values.data() + row * t.dimensions;
}

} // namespace

class TestEmbeddingProjection : public QObject
{
    Q_OBJECT

private slots:
    void specialTokensLeftOutOfTheFit();
    void fewWordsFitEverything();
    void oneDimensionHasNoSecondComponent();
    void refreshDoesNotMirror();
    void emptyTableProjectsNothing();
    void inconsistentTableThrows_data();
    void inconsistentTableThrows();
    void nearestWordsByCosine();
    void nearestWordsCountAndZeroVectors();
    void nearestWordsRejectsBadIndex();
};

void TestEmbeddingProjection::specialTokensLeftOutOfTheFit()
{
    const EmbeddingTable t = table();
    const EmbeddingProjection projection = projectEmbeddings2d(t);
    QCOMPARE(int(projection.words.size()), 11);
    QCOMPARE(projection.components, 2);
    for (int i = 0; i < 11; ++i) {
        const ProjectedWord &word = projection.words[std::size_t(i)];
        QCOMPARE(word.word, t.words[std::size_t(i)]);
        QCOMPARE(word.special, i < kFirstWord);
        QCOMPARE(word.fitted, i >= kFirstWord);
    }

    // The same as fitting the seven words alone, and every row (special or not) placed on those axes.
    const std::vector<float> words(t.values.begin() + kFirstWord * 3, t.values.end());
    const PrincipalComponents pca = principalComponents(words, 7, 3, 2);
    QVERIFY(std::abs(projection.explainedVariance[0] - pca.explainedVariance[0]) < 1e-12);
    QVERIFY(std::abs(projection.explainedVariance[1] - pca.explainedVariance[1]) < 1e-12);
    QVERIFY(projection.explainedVariance[0] + projection.explainedVariance[1] < 1.0);
    for (int i = 0; i < 11; ++i) {
        double expected[2] = {0, 0};
        for (int c = 0; c < 2; ++c)
            for (int d = 0; d < 3; ++d)
                expected[c] += (rowOf(t, i)[d] - pca.mean[std::size_t(d)]) * pca.axes[std::size_t(c * 3 + d)];
        QVERIFY(std::abs(projection.words[std::size_t(i)].x - expected[0]) < 1e-9);
        QVERIFY(std::abs(projection.words[std::size_t(i)].y - expected[1]) < 1e-9);
    }
    for (int i = kFirstWord; i < 11; ++i)
        QCOMPARE(projection.words[std::size_t(i)].x, pca.projected[std::size_t(2 * (i - kFirstWord))]);
}

void TestEmbeddingProjection::fewWordsFitEverything()
{
    EmbeddingTable t;
    t.words = {"<PAD>", "<EOS>", "cat"};
    t.dimensions = 2;
    t.values = {0, 0, 2, 0, 4, 1};
    const EmbeddingProjection projection = projectEmbeddings2d(t);
    // One word alone has no spread: the axes are fitted to all three rows instead.
    const PrincipalComponents pca = principalComponents(t.values, 3, 2, 2);
    for (int i = 0; i < 3; ++i) {
        QVERIFY(projection.words[std::size_t(i)].fitted);
        QCOMPARE(projection.words[std::size_t(i)].special, i < 2);
        QVERIFY(std::abs(projection.words[std::size_t(i)].x - pca.projected[std::size_t(2 * i)]) < 1e-12);
        QVERIFY(std::abs(projection.words[std::size_t(i)].y - pca.projected[std::size_t(2 * i + 1)]) < 1e-12);
    }
    QVERIFY(std::abs(projection.explainedVariance[0] - pca.explainedVariance[0]) < 1e-12);
}

void TestEmbeddingProjection::oneDimensionHasNoSecondComponent()
{
    EmbeddingTable t;
    t.words = {"a", "b", "c"};
    t.dimensions = 1;
    t.values = {1, 2, 6};
    const EmbeddingProjection projection = projectEmbeddings2d(t);
    QCOMPARE(projection.components, 1);
    QCOMPARE(projection.explainedVariance[0], 1.0);
    QCOMPARE(projection.explainedVariance[1], 0.0);
    const double expected[] = {-2, -1, 3};
    for (int i = 0; i < 3; ++i) {
        QVERIFY(std::abs(projection.words[std::size_t(i)].x - expected[i]) < 1e-12);
        QCOMPARE(projection.words[std::size_t(i)].y, 0.0);
    }
}

void TestEmbeddingProjection::refreshDoesNotMirror()
{
    // The next epoch's vectors differ a little, and another vocabulary may list the words in
    // another order: every word stays about where it was, on the same side of each axis.
    const EmbeddingTable before = table();
    EmbeddingTable after;
    after.dimensions = 3;
    for (int i = 10; i >= 0; --i) {
        after.words.push_back(before.words[std::size_t(i)]);
        for (int d = 0; d < 3; ++d)
            after.values.push_back(rowOf(before, i)[d] * 1.01f + 0.002f * float((i + d) % 5));
    }
    const EmbeddingProjection a = projectEmbeddings2d(before);
    const EmbeddingProjection b = projectEmbeddings2d(after);
    for (int i = 0; i < 11; ++i) {
        const ProjectedWord &p = a.words[std::size_t(i)];
        const ProjectedWord &q = b.words[std::size_t(10 - i)];
        QCOMPARE(q.word, p.word);
        // Far-out special tokens move further when the axes turn a little.
        const double tolerance = 0.05 * (1 + std::hypot(p.x, p.y));
        QVERIFY2(std::abs(p.x - q.x) < tolerance && std::abs(p.y - q.y) < tolerance,
                 qPrintable(QString("%1: (%2, %3) then (%4, %5)")
                                .arg(QString::fromStdString(p.word)).arg(p.x).arg(p.y).arg(q.x).arg(q.y)));
    }
}

void TestEmbeddingProjection::emptyTableProjectsNothing()
{
    const EmbeddingProjection projection = projectEmbeddings2d(EmbeddingTable{});
    QVERIFY(projection.words.empty());
    QCOMPARE(projection.components, 0);
}

void TestEmbeddingProjection::inconsistentTableThrows_data()
{
    QTest::addColumn<int>("dimensions");
    QTest::addColumn<int>("valueCount");
    QTest::newRow("too few values") << 3 << 10;
    QTest::newRow("zero dimensions") << 0 << 0;
}

void TestEmbeddingProjection::inconsistentTableThrows()
{
    QFETCH(int, dimensions);
    QFETCH(int, valueCount);
    EmbeddingTable bad = table();
    bad.dimensions = dimensions;
    bad.values.resize(std::size_t(valueCount));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, projectEmbeddings2d(bad));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, nearestWords(bad, kCat, 3));
}

void TestEmbeddingProjection::nearestWordsByCosine()
{
    const auto nearest = nearestWords(table(), kCat, 5);
    const std::vector<std::pair<std::string, double>> expected = {
        {"dog", 0.92 / std::sqrt(1.01 * 0.85)}, {"fox", 0.8 / std::sqrt(1.01)}, {"bus", 0.19 / std::sqrt(1.01 * 0.82)},
        {"car", 0.1 / std::sqrt(1.01 * 1.01)},  {"tree", 0.0}};
    QCOMPARE(int(nearest.size()), 5);
    for (std::size_t i = 0; i < expected.size(); ++i) {
        QCOMPARE(table().words[std::size_t(nearest[i].index)], expected[i].first);
        QVERIFY2(std::abs(nearest[i].similarity - expected[i].second) < 1e-6,
                 qPrintable(QString("%1: %2").arg(i).arg(nearest[i].similarity)));
    }
    // A special token may ask for its neighbours; they are words, never other special tokens.
    const auto fromEos = nearestWords(table(), 2, 3);
    QCOMPARE(table().words[std::size_t(fromEos[0].index)], std::string("cat"));
    QVERIFY(std::abs(fromEos[0].similarity - 1) < 1e-6);
    for (const WordNeighbour &n : fromEos)
        QVERIFY(n.index >= kFirstWord);
}

void TestEmbeddingProjection::nearestWordsCountAndZeroVectors()
{
    EmbeddingTable t;
    t.words = {"query", "diagonal", "orthogonal", "opposite", "zero"};
    t.dimensions = 2;
    t.values = {1, 0, 1, 1, 0, 1, -1, 0, 0, 0};
    const auto all = nearestWords(t, 0, 100);
    QCOMPARE(int(all.size()), 4);
    QCOMPARE(all[0].index, 1);
    QCOMPARE(all[1].index, 2);  // cosine 0, before the zero vector (also 0) by table order
    QCOMPARE(all[2].index, 4);
    QCOMPARE(all[2].similarity, 0.0);
    QCOMPARE(all[3].index, 3);
    QVERIFY(std::abs(all[3].similarity + 1) < 1e-12);
    QCOMPARE(int(nearestWords(t, 0, 0).size()), 0);
    // From a zero vector everything is equally (un)related, and nothing is NaN.
    for (const WordNeighbour &n : nearestWords(t, 4, 4))
        QCOMPARE(n.similarity, 0.0);
}

void TestEmbeddingProjection::nearestWordsRejectsBadIndex()
{
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, nearestWords(table(), 11, 1));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, nearestWords(table(), -1, 1));
}

ATTNSCOPE_TEST(embeddingprojection, TestEmbeddingProjection)
#include "tst_embeddingprojection.moc"
