#include "tests/common/testregistry.h"
#include "engine/word2vec/vectorqueries.h"

#include <QtTest>

#include <cmath>

// The queries gensim's KeyedVectors answers, on vectors made by hand so the answers are known.
class TestVectorQueries : public QObject
{
    Q_OBJECT
private slots:
    void nearestByCosineBestFirst();
    void analogyFollowsTheOffsetAndSkipsItsInputs();
    void oddOneOutIsFarthestFromTheMean();
    void zeroVectorIsSimilarToNothing();
};

namespace {

// Gender along x, royalty along y, a third axis for the odd one out.
WordVectors family()
{
    return {{"man", "woman", "king", "queen", "boy", "apple", "nothing"},
            3,
            {1, 0, 0.1f,  -1, 0, 0.1f,  1, 1, 0.1f,  -1, 1, 0.1f,  0.9f, -0.2f, 0.1f,  0, 0, 5,  0, 0, 0},
            {}};
}

}

void TestVectorQueries::nearestByCosineBestFirst()
{
    const VectorIndex index(family());
    const std::vector<ScoredWord> near = index.nearest(index.index("man"), 3);
    QCOMPARE(near.size(), std::size_t(3));
    QCOMPARE(near[0].word, std::string("boy"));
    QCOMPARE(near[1].word, std::string("king"));
    QVERIFY(near[0].score >= near[1].score && near[1].score >= near[2].score);
    const double expected = (0.9 + 0.01) / (std::sqrt(1.01) * std::sqrt(0.81 + 0.04 + 0.01));
    QVERIFY(std::abs(near[0].score - expected) < 1e-6);
    for (const ScoredWord &w : near)
        QVERIFY(w.word != "man");
}

void TestVectorQueries::analogyFollowsTheOffsetAndSkipsItsInputs()
{
    const VectorIndex index(family());
    // man : king :: woman : ?  ->  king - man + woman = queen.
    const std::vector<ScoredWord> answers = index.analogy(index.index("man"), index.index("king"), index.index("woman"), 7);
    QCOMPARE(answers.front().word, std::string("queen"));
    QCOMPARE(answers.size(), std::size_t(4));  // seven words, three of them inputs
    for (const ScoredWord &w : answers)
        QVERIFY(w.word != "man" && w.word != "king" && w.word != "woman");
}

void TestVectorQueries::oddOneOutIsFarthestFromTheMean()
{
    const VectorIndex index(family());
    const int odd = index.oddOneOut({index.index("man"), index.index("boy"), index.index("apple"), index.index("king")});
    QCOMPARE(index.word(odd), std::string("apple"));
}

void TestVectorQueries::zeroVectorIsSimilarToNothing()
{
    const VectorIndex index(family());
    QCOMPARE(index.similarity(index.index("nothing"), index.index("man")), 0.0);
    QCOMPARE(index.index("unicorn"), -1);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, VectorIndex(WordVectors{{"a"}, 2, {1}, {}}));
}

ATTNSCOPE_TEST(vectorqueries, TestVectorQueries)
#include "tst_vectorqueries.moc"
