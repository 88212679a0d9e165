#include "tests/common/testregistry.h"
#include "tests/common/faithfulnessshape.h"
#include "engine/attention/faithfulness.h"
#include "engine/attention/outputlogprob.h"
#include "tests/common/tinymodel.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace {

constexpr int kSentencesMeasured = 24;

// One output row of hand-made maps over `words` words, a map per list of scores.
SentenceAttribution handMadeRow(const std::vector<std::vector<double>> &rows, int words)
{
    SentenceAttribution explained;
    explained.words.assign(std::size_t(words), "w");
    for (const std::vector<double> &scores : rows) {
        AttributionMap map;
        map.rows = 1;
        map.columns = words;
        map.scores = scores;
        explained.maps.push_back(map);
    }
    return explained;
}

// Equal figure by figure, undefined where the other is undefined.
bool sameFigures(const std::vector<double> &a, const std::vector<double> &b)
{
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](double x, double y) {
               return x == y || (std::isnan(x) && std::isnan(y));
           });
}

// The worst ranking by a faithful measure: the words whose removal costs y_t least (by occlusion)
// go first. Its comprehensiveness is what a method that gets importance backwards would score.
std::vector<double> worstComprehensiveness(const Seq2SeqModel &model, const std::vector<SentencePair> &data)
{
    AttributionOptions occlusionOnly;
    occlusionOnly.methods = {AttributionMethod::Occlusion};
    const std::vector<double> &fractions = erasureFractions();
    std::vector<double> sums(fractions.size(), 0);
    int steps = 0;
    for (const SentencePair &pair : data) {
        const SentenceAttribution explained = attribute(model, pair.source, occlusionOnly);
        const int n = int(explained.words.size());
        for (int row = 0; row < int(explained.steps.size()); ++row) {
            const std::vector<double> scores = explained.maps.front().row(row);
            std::vector<int> order(static_cast<std::size_t>(n));
            std::iota(order.begin(), order.end(), 0);
            std::stable_sort(order.begin(), order.end(),
                             [&](int a, int b) { return scores[std::size_t(a)] < scores[std::size_t(b)]; });
            std::vector<std::vector<std::string>> sources{explained.words};
            for (double k : fractions) {
                const int erased = std::clamp(int(std::ceil(k * n - 1e-9)), 1, n - 1);
                std::vector<bool> kept(std::size_t(n), true);
                for (int i = 0; i < erased; ++i)
                    kept[std::size_t(order[std::size_t(i)])] = false;
                std::vector<std::string> source;
                for (int i = 0; i < n; ++i)
                    if (kept[std::size_t(i)])
                        source.push_back(explained.words[std::size_t(i)]);
                sources.push_back(source);
            }
            const std::vector<std::vector<double>> logProbs = outputStepLogProbs(model, sources, explained.sentence);
            for (std::size_t f = 0; f < fractions.size(); ++f)
                sums[f] += std::exp(logProbs[0][std::size_t(row)]) - std::exp(logProbs[f + 1][std::size_t(row)]);
            ++steps;
        }
    }
    for (double &sum : sums)
        sum /= steps;
    return sums;
}

}

// Agreement between attribution methods and their faithfulness by erasure, on hand-made maps and
// on a tiny model trained to reverse, whose right answer (the source word each output word comes
// from) is known.
class TestFaithfulness : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void knownAnswerColumnOfTask_data();
    void knownAnswerColumnOfTask();
    void rowAgreementRanksHandMadeMaps();
    void rowAgreementIsUndefinedBelowThreeWords();
    void reportHasEveryMethodAndFraction();
    void randomSitsBetweenMethodsAndWorstCase();
    void keepGoingStopsEarly();
    void attentionOnlyWithAttention();

private:
    std::unique_ptr<Seq2SeqModel> m_model;
    std::vector<SentencePair> m_test;
    FaithfulnessReport m_report;
};

void TestFaithfulness::initTestCase()
{
    const Dataset data = Dataset::build(tinyDataset());
    m_model = std::make_unique<Seq2SeqModel>(tinyModelConfig(), Vocabulary::build(data.train), 1);
    m_model->datasetConfig = tinyDataset();
    Trainer(*m_model, data, tinyTraining()).run();
    m_test.assign(data.test.begin(), data.test.begin() + kSentencesMeasured);
    m_report = measureFaithfulness(*m_model, m_test, Task::Reverse);
}

void TestFaithfulness::knownAnswerColumnOfTask_data()
{
    QTest::addColumn<int>("task");
    QTest::addColumn<int>("words");
    QTest::addColumn<int>("row");
    QTest::addColumn<int>("column");
    QTest::newRow("reverse first") << int(Task::Reverse) << 4 << 0 << 3;
    QTest::newRow("reverse middle") << int(Task::Reverse) << 4 << 1 << 2;
    QTest::newRow("reverse last") << int(Task::Reverse) << 4 << 3 << 0;
    QTest::newRow("reverse <EOS>") << int(Task::Reverse) << 4 << 4 << -1;
    QTest::newRow("reverse beyond") << int(Task::Reverse) << 4 << 7 << -1;
    QTest::newRow("reverse negative") << int(Task::Reverse) << 4 << -1 << -1;
    QTest::newRow("copy first") << int(Task::Copy) << 4 << 0 << 0;
    QTest::newRow("copy last") << int(Task::Copy) << 4 << 3 << 3;
    QTest::newRow("copy <EOS>") << int(Task::Copy) << 4 << 4 << -1;
    QTest::newRow("copy one word") << int(Task::Copy) << 1 << 0 << 0;
}

void TestFaithfulness::knownAnswerColumnOfTask()
{
    QFETCH(int, task);
    QFETCH(int, words);
    QFETCH(int, row);
    QFETCH(int, column);
    QCOMPARE(knownAnswerColumn(Task(task), words, row), column);
}

void TestFaithfulness::rowAgreementRanksHandMadeMaps()
{
    // Same ranking at another scale, the ranking reversed, and a row without a ranking.
    const SentenceAttribution explained =
        handMadeRow({{4, 3, 2, 1}, {40, 0.5, 0.2, -7}, {-1, 0, 1, 2}, {0.25, 0.25, 0.25, 0.25}}, 4);
    const std::vector<double> agreement = rowAgreement(explained, 0);
    QCOMPARE(agreement.size(), std::size_t(16));
    QCOMPARE(agreement[0 * 4 + 1], 1.0);
    QCOMPARE(agreement[1 * 4 + 0], 1.0);
    QCOMPARE(agreement[0 * 4 + 2], -1.0);
    QCOMPARE(agreement[2 * 4 + 1], -1.0);
    QCOMPARE(agreement[2 * 4 + 2], 1.0);
    for (int i = 0; i < 4; ++i) {
        QVERIFY(std::isnan(agreement[std::size_t(i * 4 + 3)]));
        QVERIFY(std::isnan(agreement[std::size_t(3 * 4 + i)]));
    }

    // The row asked for, not the first: on row 1 the second map turns against the first.
    SentenceAttribution twoRows = handMadeRow({{4, 3, 2, 1, 1, 2, 3, 4}, {1, 2, 3, 4, 1, 2, 3, 5}}, 4);
    for (AttributionMap &map : twoRows.maps)
        map.rows = 2;
    QCOMPARE(rowAgreement(twoRows, 0)[1], -1.0);
    QCOMPARE(rowAgreement(twoRows, 1)[1], 1.0);
}

void TestFaithfulness::rowAgreementIsUndefinedBelowThreeWords()
{
    const std::vector<double> agreement = rowAgreement(handMadeRow({{2, 1}, {1, 2}}, 2), 0);
    QCOMPARE(agreement.size(), std::size_t(4));
    for (double rho : agreement)
        QVERIFY(std::isnan(rho));
}

void TestFaithfulness::reportHasEveryMethodAndFraction()
{
    const FaithfulnessReport &r = m_report;
    QCOMPARE(r.sentences, kSentencesMeasured);
    QCOMPARE(r.methods, allAttributionMethods());
    int steps = 0, answered = 0;
    for (const SentencePair &pair : m_test) {
        const DecodedSentence y = m_model->decode(pair.source);
        steps += y.rows();
        for (int row = 0; row < y.rows(); ++row)
            answered += row < int(pair.source.size()) && y.outputTokens[std::size_t(row)] != "<EOS>";
    }
    QCOMPARE(r.steps, steps);
    QCOMPARE(r.answeredSteps, answered);

    const std::size_t methods = r.methods.size();
    QCOMPARE(r.agreement.size(), methods * methods);
    for (std::size_t i = 0; i < methods; ++i) {
        QCOMPARE(r.agreement[i * methods + i], 1.0);
        for (std::size_t j = 0; j < methods; ++j) {
            const double rho = r.agreement[i * methods + j];
            QVERIFY(rho >= -1 && rho <= 1);
            QCOMPARE(rho, r.agreement[j * methods + i]);
        }
    }
    checkFaithfulnessShape(r);
    // A model that reverses perfectly reads the word it writes: attention points at it. Leaving a
    // word out shifts every later position, so occlusion often blames another word as much (0.73
    // on this model), yet it finds the answer far more often than chance (1/n, about 0.3 here).
    QVERIFY2(r.topAnswerAgreement[0] > 0.9, qPrintable(QString::number(r.topAnswerAgreement[0])));
    QVERIFY2(r.topAnswerAgreement[4] > 0.5, qPrintable(QString::number(r.topAnswerAgreement[4])));
}

// ERASER's sanity check: removing a random k% hurts less than removing what a method ranks first,
// and more than removing what matters least.
void TestFaithfulness::randomSitsBetweenMethodsAndWorstCase()
{
    const std::vector<double> worst = worstComprehensiveness(*m_model, m_test);
    const ErasureCurve &random = m_report.curves.back();
    for (std::size_t f = 0; f < erasureFractions().size(); ++f) {
        double best = -1;
        for (std::size_t m = 0; m + 1 < m_report.curves.size(); ++m)
            best = std::max(best, m_report.curves[m].comprehensiveness[f]);
        const QString figures = QString("k %1: worst %2, random %3, best method %4")
                                    .arg(erasureFractions()[f])
                                    .arg(worst[f])
                                    .arg(random.comprehensiveness[f])
                                    .arg(best);
        QVERIFY2(worst[f] < random.comprehensiveness[f], qPrintable(figures));
        QVERIFY2(random.comprehensiveness[f] < best, qPrintable(figures));
    }
    // The random ranking is seeded: the same data gives the same curve.
    const FaithfulnessReport again = measureFaithfulness(*m_model, m_test, Task::Reverse);
    QCOMPARE(again.curves.back().comprehensiveness, random.comprehensiveness);
    QCOMPARE(again.curves.back().sufficiency, random.sufficiency);
}

void TestFaithfulness::keepGoingStopsEarly()
{
    AttributionOptions quick;
    quick.methods = {AttributionMethod::Attention, AttributionMethod::Occlusion};
    int asked = 0;
    const FaithfulnessReport stopped =
        measureFaithfulness(*m_model, m_test, Task::Reverse, quick, [&] { return ++asked <= 2; });
    QCOMPARE(asked, 3);
    QCOMPARE(stopped.sentences, 2);
    // The sentences done so far, measured as if they were all there was.
    const FaithfulnessReport two = measureFaithfulness(
        *m_model, std::vector<SentencePair>(m_test.begin(), m_test.begin() + 2), Task::Reverse, quick);
    QCOMPARE(stopped.steps, two.steps);
    QVERIFY(sameFigures(stopped.agreement, two.agreement));
    for (std::size_t c = 0; c < two.curves.size(); ++c)
        QCOMPARE(stopped.curves[c].comprehensiveness, two.curves[c].comprehensiveness);

    const FaithfulnessReport none = measureFaithfulness(*m_model, m_test, Task::Reverse, quick, [] { return false; });
    QCOMPARE(none.sentences, 0);
    QCOMPARE(none.methods, quick.methods);
    QCOMPARE(none.curves.size(), std::size_t(3));
    QVERIFY(std::isnan(none.curves.back().comprehensiveness.front()));
    QVERIFY(std::isnan(none.topAnswerAgreement.front()));
    QVERIFY(std::isnan(none.agreement.front()));
}

void TestFaithfulness::attentionOnlyWithAttention()
{
    ModelConfig config = tinyModelConfig();
    config.attention = AttentionKind::None;
    const Seq2SeqModel none(config, Vocabulary({"red", "cat", "dog"}), 1);
    AttributionOptions options;
    options.methods = {AttributionMethod::Attention, AttributionMethod::Occlusion};
    const std::vector<SentencePair> data{SentencePair{{"red", "cat", "dog"}, {}}, SentencePair{{"cat"}, {}}};
    const FaithfulnessReport r = measureFaithfulness(none, data, Task::Reverse, options);
    QCOMPARE(r.methods, std::vector<AttributionMethod>{AttributionMethod::Occlusion});
    QCOMPARE(r.sentences, 1);  // one word is too few to take one away
    QCOMPARE(r.curves.size(), std::size_t(2));
    QCOMPARE(r.agreement.size(), std::size_t(1));
}

ATTNSCOPE_TEST(faithfulness, TestFaithfulness)
#include "tst_faithfulness.moc"
