#include "tests/common/testregistry.h"
#include "engine/word2vec/wordmap.h"

#include <QtTest>

#include <cmath>
#include <random>

// The word map of word vectors: axes fitted to the most frequent words, and a refresh turned to
// match the last map.
class TestWordMap : public QObject
{
    Q_OBJECT
private slots:
    void axesComeFromTheMostFrequentWords();
    void rotatedVectorsKeepTheirPlaces();
    void inconsistentVectorsAreRefused();
};

namespace {

WordVectors randomVectors(int words, int dims, unsigned seed)
{
    std::mt19937 random(seed);
    std::normal_distribution<float> normal(0, 1);
    WordVectors v;
    v.dimensions = dims;
    for (int w = 0; w < words; ++w) {
        v.words.push_back("w" + std::to_string(w));
        for (int d = 0; d < dims; ++d)
            v.values.push_back(normal(random) * (d == 0 ? 4.f : d == 1 ? 2.f : 0.5f));
    }
    return v;
}

}

void TestWordMap::axesComeFromTheMostFrequentWords()
{
    WordVectors v = randomVectors(60, 8, 1);
    // Rare words (rows 20 on) vary along dimension 7 far more than anything else: fitted on the
    // first 20 only, the map must not notice.
    for (int w = 20; w < 60; ++w)
        v.values[std::size_t(w) * 8 + 7] = float(w % 2 ? 100 : -100);
    const EmbeddingProjection map = projectWordMap(v, 20);
    QCOMPARE(map.words.size(), std::size_t(60));
    QCOMPARE(map.components, 2);
    QVERIFY(map.words[19].fitted && !map.words[20].fitted);
    QVERIFY(map.explainedVariance[0] >= map.explainedVariance[1]);
    QVERIFY(map.explainedVariance[0] > 0.5 && map.explainedVariance[0] + map.explainedVariance[1] <= 1 + 1e-9);
    double rareSpread = 0;
    for (int w = 20; w < 60; ++w)
        rareSpread = std::max(rareSpread, std::abs(map.words[std::size_t(w)].x));
    QVERIFY2(rareSpread < 30, "the rare words' own direction took an axis");
}

void TestWordMap::rotatedVectorsKeepTheirPlaces()
{
    const WordVectors v = randomVectors(50, 6, 2);
    const EmbeddingProjection first = projectWordMap(v, 50);
    // The same vectors turned in the (0, 1) plane and mirrored in dimension 2: distances are
    // unchanged, but the fitted axes may come out turned or flipped.
    WordVectors turned = v;
    for (int w = 0; w < 50; ++w) {
        float *row = turned.values.data() + std::size_t(w) * 6;
        const float x = row[0], y = row[1];
        row[0] = 0.6f * x - 0.8f * y;
        row[1] = 0.8f * x + 0.6f * y;
        row[2] = -row[2];
    }
    const EmbeddingProjection second = projectWordMap(turned, 50, &first);
    for (std::size_t w = 0; w < 50; ++w) {
        QVERIFY(std::abs(second.words[w].x - first.words[w].x) < 1e-3);
        QVERIFY(std::abs(second.words[w].y - first.words[w].y) < 1e-3);
    }
}

void TestWordMap::inconsistentVectorsAreRefused()
{
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, projectWordMap(WordVectors{{"a", "b"}, 3, {1, 2, 3}, {}}, 10));
    QVERIFY(projectWordMap(WordVectors{{}, 3, {}, {}}, 10).words.empty());
}

ATTNSCOPE_TEST(wordmap, TestWordMap)
#include "tst_wordmap.moc"
