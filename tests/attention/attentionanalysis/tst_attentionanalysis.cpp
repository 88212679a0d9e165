#include "tests/common/testregistry.h"
#include "engine/attention/attentionanalysis.h"
#include "engine/attention/evaluation.h"

#include <QtTest>

namespace {

// A run's epochs with the given validation exact match and alignment accuracy (as shares); the
// mean right weight is 0.8 throughout.
struct Run {
    std::vector<EpochStats> history;
    std::vector<EpochAlignment> alignment;
};

Run run(const QList<double> &exactMatch, const QList<double> &aligned)
{
    Run r;
    for (int i = 0; i < exactMatch.size(); ++i) {
        EpochStats stats;
        stats.epoch = i + 1;
        stats.valExactMatch = exactMatch[i];
        r.history.push_back(stats);
        AlignmentScore score;
        score.steps = 1000;
        score.alignedSteps = int(std::lround(aligned[i] * 1000));
        score.rightWeight = 800;
        r.alignment.push_back({i + 1, score});
    }
    return r;
}

}

class TestAttentionAnalysis : public QObject
{
    Q_OBJECT
private slots:
    void alignmentOverTraining_data();
    void alignmentOverTraining();
    void noTrainingRunNoTimeline();
    void questionThreeComparesAlignedAndOtherSteps_data();
    void questionThreeComparesAlignedAndOtherSteps();
};

void TestAttentionAnalysis::alignmentOverTraining_data()
{
    QTest::addColumn<QList<double>>("exactMatch");
    QTest::addColumn<QList<double>>("aligned");
    QTest::addColumn<QString>("expected");
    QTest::newRow("aligned first") << QList<double>{0.1, 0.5, 0.95} << QList<double>{0.4, 0.93, 0.99}
                                   << "alignment accuracy first reached 90.0% at epoch 2 and exact match at epoch 3, so "
                                      "attention lined up before the outputs became right.";
    QTest::newRow("together") << QList<double>{0.1, 0.91} << QList<double>{0.4, 0.9}
                              << "at epoch 2 and exact match at epoch 2, so attention lined up in the same epoch";
    QTest::newRow("aligned later") << QList<double>{0.92, 0.95} << QList<double>{0.6, 0.97}
                                   << "at epoch 2 and exact match at epoch 1, so attention lined up only after";
    QTest::newRow("never aligned") << QList<double>{0.3, 0.96} << QList<double>{0.2, 0.45}
                                   << "exact match first reached 90.0% at epoch 2, while alignment accuracy never did "
                                      "(best 45.0%)";
    QTest::newRow("outputs never right") << QList<double>{0.1, 0.2} << QList<double>{0.5, 0.92}
                                         << "while exact match never did (best 20.0%)";
    QTest::newRow("neither") << QList<double>{0.1, 0.2} << QList<double>{0.3, 0.5}
                             << "neither alignment accuracy (best 50.0%) nor exact match (best 20.0%) reached 90.0%.";
}

void TestAttentionAnalysis::alignmentOverTraining()
{
    QFETCH(QList<double>, exactMatch);
    QFETCH(QList<double>, aligned);
    QFETCH(QString, expected);
    const Run r = run(exactMatch, aligned);
    const QString md = QString::fromStdString(analysisMarkdown(AttentionAnalysis{}, EvaluationReport{}, r.history,
                                                               r.alignment));
    QVERIFY2(md.contains(expected), qPrintable(md));
    const QString last = QStringLiteral("After epoch %1 alignment accuracy was %2% with a mean weight of 0.800")
                             .arg(exactMatch.size())
                             .arg(100 * aligned.last(), 0, 'f', 1);
    QVERIFY2(md.contains(last), qPrintable(md));
}

void TestAttentionAnalysis::noTrainingRunNoTimeline()
{
    const QString opened = QString::fromStdString(analysisMarkdown(AttentionAnalysis{}, EvaluationReport{}));
    QVERIFY(opened.contains("## 2."));
    QVERIFY(!opened.contains("Over training"));
    AttentionAnalysis none;
    none.hasAttention = false;
    const Run r = run({0.5}, {0.5});
    const QString withoutAttention =
        QString::fromStdString(analysisMarkdown(none, EvaluationReport{}, r.history, {}));
    QVERIFY(withoutAttention.contains("no attention"));
    QVERIFY(!withoutAttention.contains("alignment accuracy"));
}

void TestAttentionAnalysis::questionThreeComparesAlignedAndOtherSteps_data()
{
    QTest::addColumn<QList<int>>("counts");  // aligned steps, right among them, other steps, right among them
    QTest::addColumn<double>("otherRightWeight");
    QTest::addColumn<QString>("expected");
    QTest::newRow("follows") << QList<int>{90, 88, 10, 2} << 0.1
                             << "At the 90 steps whose strongest weight is on that word, the emitted word is right 97.8% "
                                "of the time; at the 10 steps that look elsewhere, 20.0%. The output follows where "
                                "attention looks";
    QTest::newRow("another way") << QList<int>{50, 45, 50, 47} << 0.05
                                 << "right 90.0% of the time; at the 50 steps that look elsewhere, 94.0%. Those steps "
                                    "give the word a mean weight of only 0.050, yet the word is right about as often";
    QTest::newRow("still read") << QList<int>{95, 95, 5, 5} << 0.4
                                << "Those steps still give the word a mean weight of 0.400, not the largest but enough";
    QTest::newRow("helps") << QList<int>{60, 54, 40, 28} << 0.3 << "elsewhere, 70.0%. Looking at the word helps";
    QTest::newRow("never elsewhere") << QList<int>{30, 30, 0, 0} << 0.0 << "no step looked elsewhere";
    QTest::newRow("never aligned") << QList<int>{0, 0, 30, 20} << 0.1 << "No step looked at the word it must output";
}

void TestAttentionAnalysis::questionThreeComparesAlignedAndOtherSteps()
{
    QFETCH(QList<int>, counts);
    QFETCH(double, otherRightWeight);
    QFETCH(QString, expected);
    AttentionAnalysis a;
    a.alignedSteps = counts[0];
    a.alignedRight = counts[1];
    a.otherSteps = counts[2];
    a.otherRight = counts[3];
    a.wordSteps = a.alignedSteps + a.otherSteps;
    a.meanRightWeight = 0.625;
    a.otherRightWeight = otherRightWeight;
    const QString md = QString::fromStdString(analysisMarkdown(a, EvaluationReport{}));
    const QString three = md.section(QStringLiteral("## 3."), 1).section(QStringLiteral("## 4."), 0, 0);
    QVERIFY2(three.contains(expected), qPrintable(three));
    QVERIFY2(three.contains("gives the word to be output a mean weight of 0.625"), qPrintable(three));
}

ATTNSCOPE_TEST(attentionanalysis, TestAttentionAnalysis)
#include "tst_attentionanalysis.moc"
