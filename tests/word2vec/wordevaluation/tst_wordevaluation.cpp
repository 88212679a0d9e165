#include "engine/word2vec/wordevaluation.h"

#include <QtTest>

// Analogy accuracy and word-pair similarity, as the usual benchmark files are scored.
class TestWordEvaluation : public QObject
{
    Q_OBJECT
private slots:
    void analogiesCountOnlyKnownWords();
    void badAnalogyLineIsRefused();
    void spearmanOfKnownRankings_data();
    void spearmanOfKnownRankings();
    void similarityFileAgainstCosines();
};

namespace {

VectorIndex family()
{
    return VectorIndex({{"man", "woman", "king", "queen", "boy", "girl"},
                        2,
                        {1, 0, -1, 0, 1, 1, -1, 1, 1, -0.3f, -1, -0.3f},
                        {}});
}

}

void TestWordEvaluation::analogiesCountOnlyKnownWords()
{
    const AnalogyResult r = evaluateAnalogies(family(), ": gender\n"
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
        evaluateAnalogies(family(), ": s\nman woman king\n");
        QFAIL("accepted");
    } catch (const std::invalid_argument &e) {
        QVERIFY2(QString(e.what()).contains("line 2"), e.what());
    }
}

void TestWordEvaluation::spearmanOfKnownRankings_data()
{
    QTest::addColumn<QVector<double>>("a");
    QTest::addColumn<QVector<double>>("b");
    QTest::addColumn<double>("expected");
    QTest::newRow("same order, other scale") << QVector<double>{1, 2, 3, 4} << QVector<double>{10, 200, 3000, 40000} << 1.0;
    QTest::newRow("reversed") << QVector<double>{1, 2, 3, 4} << QVector<double>{4, 3, 2, 1} << -1.0;
    // d = (0, 0, 1, -1): 1 - 6 * 2 / (4 * 15) = 0.8.
    QTest::newRow("one swap") << QVector<double>{1, 2, 3, 4} << QVector<double>{1, 2, 4, 3} << 0.8;
    // Ties take their mean rank: b's ranks are 1.5, 1.5, 3, 4; Pearson of the ranks.
    QTest::newRow("tie") << QVector<double>{1, 2, 3, 4} << QVector<double>{5, 5, 6, 7} << 0.9486832980505138;
    QTest::newRow("constant") << QVector<double>{1, 2, 3} << QVector<double>{2, 2, 2} << 0.0;
}

void TestWordEvaluation::spearmanOfKnownRankings()
{
    QFETCH(QVector<double>, a);
    QFETCH(QVector<double>, b);
    QFETCH(double, expected);
    const double rho = spearmanCorrelation(std::vector<double>(a.begin(), a.end()), std::vector<double>(b.begin(), b.end()));
    QVERIFY2(std::abs(rho - expected) < 1e-12, qPrintable(QString::number(rho, 'g', 17)));
}

void TestWordEvaluation::similarityFileAgainstCosines()
{
    // Cosines: man-boy high, man-king ~0.71, man-woman -1: the human scores rank them the same way.
    const SimilarityResult r = evaluateSimilarity(family(), "# a comment\nman\tboy\t9.0\nman king 6\n"
                                                            "man woman 1.5\r\nman centaur 3\n");
    QCOMPARE(r.pairs, 3);
    QCOMPARE(r.skipped, 1);
    QCOMPARE(r.spearman, 1.0);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, evaluateSimilarity(family(), "man boy lots\n"));
}

QTEST_MAIN(TestWordEvaluation)
#include "tst_wordevaluation.moc"
