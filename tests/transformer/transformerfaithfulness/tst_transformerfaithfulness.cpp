#include "tests/common/testregistry.h"
#include "tests/common/faithfulnessshape.h"
#include "tests/common/tinytransformer.h"
#include "engine/core/corpusdefaults.h"
#include "engine/core/dataset.h"
#include "engine/core/vocabulary.h"
#include "engine/transformer/transformerattribution.h"
#include "engine/transformer/transformerfaithfulness.h"
#include "engine/transformer/transformernet.h"
#include "engine/transformer/transformertrainer.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace {

constexpr int kSentencesMeasured = 16;

DatasetConfig faithfulnessReversal()
{
    DatasetConfig config;
    config.words = {"red", "green", "blue", "cat", "dog", "sun", "moon", "tree"};
    config.minLength = 3;
    config.maxLength = 5;
    config.trainSize = 1500;
    config.valSize = 50;
    config.testSize = 50;
    config.seed = 3;
    return config;
}

// log P(y_t) of `output` at every step, teacher-forced, for `words` alone: LibTorch's own pass
// over the model's network, one unpadded sentence.
std::vector<double> handTeacherForcedLogProbs(const TransformerModel &model, const std::vector<std::string> &words,
                                          const std::vector<std::string> &output)
{
    const Vocabulary &vocabulary = model.vocabulary();
    std::vector<int64_t> source, out, in{Vocabulary::kSos};
    for (const std::string &word : words)
        source.push_back(vocabulary.id(word));
    source.push_back(Vocabulary::kEos);
    for (const std::string &token : output)
        out.push_back(vocabulary.id(token));
    in.insert(in.end(), out.begin(), out.end() - 1);
    torch::NoGradGuard noGrad;
    model.net().eval();
    const torch::Tensor logits =
        model.net().forward(torch::tensor(source).view({1, -1}), torch::ones({1, int64_t(source.size())}, torch::kBool),
                            torch::tensor(in).view({1, -1}));
    const torch::Tensor logP = torch::log_softmax(logits[0].to(torch::kDouble), 1);
    std::vector<double> result;
    for (std::size_t t = 0; t < out.size(); ++t)
        result.push_back(logP[int64_t(t)][out[t]].item<double>());
    return result;
}

// `words` without the first `erased` columns of `order`, in their order; with `keepOnly`, those alone.
std::vector<std::string> handErasedWords(const std::vector<std::string> &words, const std::vector<int> &order, int erased,
                                     bool keepOnly)
{
    std::vector<bool> top(words.size(), false);
    for (int i = 0; i < erased; ++i)
        top[std::size_t(order[std::size_t(i)])] = true;
    std::vector<std::string> kept;
    for (std::size_t i = 0; i < words.size(); ++i)
        if (top[i] == keepOnly)
            kept.push_back(words[i]);
    return kept;
}

int handErasedCount(double k, int n)
{
    return std::clamp(int(std::ceil(k * n - 1e-9)), 1, n - 1);
}

// Comprehensiveness and sufficiency by hand for one method's ranking (`ascending` ranks the lowest
// scores first), sentence by sentence, step by step, each erased source scored on its own.
struct HandCurve {
    std::vector<double> comprehensiveness, sufficiency;
};

HandCurve handCurve(const TransformerModel &model, const std::vector<SentencePair> &data, AttributionMethod method,
                    bool ascending)
{
    AttributionOptions options;
    options.methods = {method};
    const std::vector<double> &fractions = erasureFractions();
    HandCurve curve{std::vector<double>(fractions.size(), 0), std::vector<double>(fractions.size(), 0)};
    int steps = 0;
    for (const SentencePair &pair : data) {
        const TransformerAttribution explained = attributeTransformer(model, pair.source, options);
        const int n = int(explained.words.size());
        const std::vector<double> whole = handTeacherForcedLogProbs(model, explained.words, explained.outputTokens);
        for (int row = 0; row < int(explained.steps.size()); ++row) {
            const std::vector<double> scores = explained.maps.front().row(row);
            std::vector<int> order(static_cast<std::size_t>(n));
            std::iota(order.begin(), order.end(), 0);
            std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
                return ascending ? scores[std::size_t(a)] < scores[std::size_t(b)]
                                 : scores[std::size_t(a)] > scores[std::size_t(b)];
            });
            const double p = std::exp(whole[std::size_t(row)]);
            for (std::size_t f = 0; f < fractions.size(); ++f) {
                const int erased = handErasedCount(fractions[f], n);
                const auto pWith = [&](bool keepOnly) {
                    const std::vector<std::string> source = handErasedWords(explained.words, order, erased, keepOnly);
                    return std::exp(handTeacherForcedLogProbs(model, source, explained.outputTokens)[std::size_t(row)]);
                };
                curve.comprehensiveness[f] += p - pWith(false);
                curve.sufficiency[f] += p - pWith(true);
            }
            ++steps;
        }
    }
    for (std::size_t f = 0; f < fractions.size(); ++f) {
        curve.comprehensiveness[f] /= steps;
        curve.sufficiency[f] /= steps;
    }
    return curve;
}

}

// Agreement between the Transformer's attribution methods and their faithfulness by erasure, on a
// tiny Transformer trained to reverse, whose right answer (the source word each output word comes
// from) is known.
class TestTransformerFaithfulness : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void reportHasEveryMethodAndFraction();
    void agreementIsSymmetricWithOneOnTheDiagonal();
    void knownAnswerIsTheMirroredWord();
    void erasureMatchesTheModelsOwnScores();
    void randomSitsBetweenMethodsAndWorstCase();
    void keepGoingStopsEarly();

private:
    std::unique_ptr<TransformerModel> m_model;
    std::vector<SentencePair> m_test;
    FaithfulnessReport m_report;
};

void TestTransformerFaithfulness::initTestCase()
{
    const Dataset data = Dataset::build(faithfulnessReversal());
    m_model = std::make_unique<TransformerModel>(tinyTransformer(1, 2, 16, 32), vocabularyFor(data, faithfulnessReversal()),
                                                 Task::Reverse, 1);
    TransformerTrainingConfig training;
    training.epochs = 8;
    training.warmupSteps = 20;
    training.learningRate = 3e-3;
    training.epochDecay = 1;
    training.threads = 1;
    TransformerTrainer(*m_model, data, training).run();
    m_test.assign(data.test.begin(), data.test.begin() + kSentencesMeasured);
    AttributionOptions options;
    options.methods = transformerAttributionMethods();
    options.integrationSteps = 16;
    m_report = measureTransformerFaithfulness(*m_model, m_test, Task::Reverse, options);
}

void TestTransformerFaithfulness::reportHasEveryMethodAndFraction()
{
    const FaithfulnessReport &r = m_report;
    QCOMPARE(r.sentences, kSentencesMeasured);
    QCOMPARE(r.methods, transformerAttributionMethods());
    int steps = 0, answered = 0;
    for (const SentencePair &pair : m_test) {
        const TransformerOutput y = m_model->decode(pair.source);
        steps += int(y.outputTokens.size());
        for (int row = 0; row < int(y.outputTokens.size()); ++row)
            answered += row < int(pair.source.size()) && y.outputTokens[std::size_t(row)] != "<EOS>";
    }
    QCOMPARE(r.steps, steps);
    QCOMPARE(r.answeredSteps, answered);
    checkFaithfulnessShape(r);
}

void TestTransformerFaithfulness::agreementIsSymmetricWithOneOnTheDiagonal()
{
    const std::size_t methods = m_report.methods.size();
    for (std::size_t i = 0; i < methods; ++i) {
        QCOMPARE(m_report.agreement[i * methods + i], 1.0);
        for (std::size_t j = 0; j < methods; ++j) {
            const double rho = m_report.agreement[i * methods + j];
            QVERIFY(rho >= -1 && rho <= 1);
            QCOMPARE(rho, m_report.agreement[j * methods + i]);
        }
    }
    // One sentence's rows as rowAgreement gives them: the same symmetry, step by step.
    const TransformerAttribution explained = attributeTransformer(*m_model, m_test.front().source);
    const std::size_t count = explained.maps.size();
    for (int row = 0; row < int(explained.steps.size()); ++row) {
        const std::vector<double> rho = rowAgreement(explained, row);
        QCOMPARE(rho.size(), count * count);
        for (std::size_t i = 0; i < count; ++i)
            for (std::size_t j = 0; j < count; ++j)
                QVERIFY(rho[i * count + j] == rho[j * count + i] ||
                        (std::isnan(rho[i * count + j]) && std::isnan(rho[j * count + i])));
    }
}

// Reversal writes word n-1-t at step t: the model's attention, which learnt to read it, finds it
// far more often than chance (1/n, at most a third here).
void TestTransformerFaithfulness::knownAnswerIsTheMirroredWord()
{
    QCOMPARE(knownAnswerColumn(Task::Reverse, 5, 0), 4);
    QCOMPARE(knownAnswerColumn(Task::Reverse, 5, 4), 0);
    QCOMPARE(knownAnswerColumn(Task::Reverse, 5, 5), -1);
    QVERIFY(m_report.answeredSteps > 0);
    const double attention = m_report.topAnswerAgreement[0];
    QVERIFY2(attention > 0.5, qPrintable(QString::number(attention)));
}

// The report's curves for one method, against the same erasures done by hand through LibTorch's own
// pass over each changed sentence alone (the report scores them padded, in one batch).
void TestTransformerFaithfulness::erasureMatchesTheModelsOwnScores()
{
    const std::vector<SentencePair> two(m_test.begin(), m_test.begin() + 2);
    AttributionOptions options;
    options.methods = {AttributionMethod::Occlusion};
    const FaithfulnessReport report = measureTransformerFaithfulness(*m_model, two, Task::Reverse, options);
    const HandCurve hand = handCurve(*m_model, two, AttributionMethod::Occlusion, /*ascending=*/false);
    for (std::size_t f = 0; f < erasureFractions().size(); ++f) {
        QVERIFY2(std::abs(report.curves[0].comprehensiveness[f] - hand.comprehensiveness[f]) < 1e-5,
                 qPrintable(QString("%1 vs %2").arg(report.curves[0].comprehensiveness[f]).arg(hand.comprehensiveness[f])));
        QVERIFY2(std::abs(report.curves[0].sufficiency[f] - hand.sufficiency[f]) < 1e-5,
                 qPrintable(QString("%1 vs %2").arg(report.curves[0].sufficiency[f]).arg(hand.sufficiency[f])));
    }
}

// ERASER's sanity check: removing a random k% hurts less than removing what the best method ranks
// first, and more than removing what matters least (occlusion's lowest first).
void TestTransformerFaithfulness::randomSitsBetweenMethodsAndWorstCase()
{
    const HandCurve worst = handCurve(*m_model, m_test, AttributionMethod::Occlusion, /*ascending=*/true);
    const ErasureCurve &random = m_report.curves.back();
    for (std::size_t f = 0; f < erasureFractions().size(); ++f) {
        double best = -1;
        for (std::size_t m = 0; m + 1 < m_report.curves.size(); ++m)
            best = std::max(best, m_report.curves[m].comprehensiveness[f]);
        const QString figures = QString("k %1: worst %2, random %3, best method %4")
                                    .arg(erasureFractions()[f])
                                    .arg(worst.comprehensiveness[f])
                                    .arg(random.comprehensiveness[f])
                                    .arg(best);
        QVERIFY2(worst.comprehensiveness[f] < random.comprehensiveness[f], qPrintable(figures));
        QVERIFY2(random.comprehensiveness[f] < best, qPrintable(figures));
    }
}

void TestTransformerFaithfulness::keepGoingStopsEarly()
{
    AttributionOptions quick;
    quick.methods = {AttributionMethod::Attention, AttributionMethod::Rollout};
    int asked = 0;
    const FaithfulnessReport stopped =
        measureTransformerFaithfulness(*m_model, m_test, Task::Reverse, quick, [&] { return ++asked <= 2; });
    QCOMPARE(asked, 3);
    QCOMPARE(stopped.sentences, 2);
    const FaithfulnessReport two = measureTransformerFaithfulness(
        *m_model, std::vector<SentencePair>(m_test.begin(), m_test.begin() + 2), Task::Reverse, quick);
    QCOMPARE(stopped.steps, two.steps);
    for (std::size_t c = 0; c < two.curves.size(); ++c)
        QCOMPARE(stopped.curves[c].comprehensiveness, two.curves[c].comprehensiveness);
    const FaithfulnessReport none =
        measureTransformerFaithfulness(*m_model, m_test, Task::Reverse, quick, [] { return false; });
    QCOMPARE(none.sentences, 0);
    QCOMPARE(none.curves.size(), std::size_t(3));
    QVERIFY(std::isnan(none.curves.back().comprehensiveness.front()));
}

ATTNSCOPE_TEST(transformerfaithfulness, TestTransformerFaithfulness)
#include "tst_transformerfaithfulness.moc"
