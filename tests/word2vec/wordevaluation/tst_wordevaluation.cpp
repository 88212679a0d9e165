#include "tests/common/testregistry.h"
#include "engine/word2vec/wordevaluation.h"

#include <QtTest>

// Analogy accuracy and word-pair similarity, as the usual benchmark files are scored.
class TestWordEvaluation : public QObject
{
    Q_OBJECT
private slots:
    void analogiesCountOnlyKnownWords();
    void badAnalogyLineIsRefused();
    void similarityFileAgainstCosines();
};

namespace {

VectorIndex familyIndex()
{
    return VectorIndex({{"man", "woman", "king", "queen", "boy", "girl"},
                        2,
                        {1, 0, -1, 0, 1, 1, -1, 1, 1, -0.3f, -1, -0.3f},
                        {}});
}

}

void TestWordEvaluation::analogiesCountOnlyKnownWords()
{
    const AnalogyResult r = evaluateAnalogies(familyIndex(), ": gender\n"
                                                        "man woman king queen\n"
                                                        "MAN WOMAN BOY GIRL\n"
                                                        "king queen man unicorn\n"
                                                        "\n"
                                                        ": wrong\n"
                                                        "man woman king boy\n");
    QCOMPARE(r.asked, 3);
    QCOMPARE(r.right, 2);
    QCOMPARE(r.skipped, 1);
    QCOMPARE(r.sections.size(), std::size_t(2));
    QCOMPARE(r.sections[0].name, std::string("gender"));
    QCOMPARE(r.sections[0].asked, 2);
    QCOMPARE(r.sections[0].right, 2);
    QCOMPARE(r.sections[1].right, 0);
    QCOMPARE(r.accuracy(), 2.0 / 3);
}

void TestWordEvaluation::badAnalogyLineIsRefused()
{
    try {
        evaluateAnalogies(familyIndex(), ": s\nman woman king\n");
        QFAIL("accepted");
    } catch (const std::invalid_argument &e) {
        QVERIFY2(QString(e.what()).contains("line 2"), e.what());
    }
}

void TestWordEvaluation::similarityFileAgainstCosines()
{
    // Cosines: man-boy high, man-king ~0.71, man-woman -1: the human scores rank them the same way.
    const SimilarityResult r = evaluateSimilarity(familyIndex(), "# a comment\nman\tboy\t9.0\nman king 6\n"
                                                            "man woman 1.5\r\nman centaur 3\n");
    QCOMPARE(r.pairs, 3);
    QCOMPARE(r.skipped, 1);
    QCOMPARE(r.spearman, 1.0);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, evaluateSimilarity(familyIndex(), "man boy lots\n"));
}

ATTNSCOPE_TEST(wordevaluation, TestWordEvaluation)
#include "tst_wordevaluation.moc"
