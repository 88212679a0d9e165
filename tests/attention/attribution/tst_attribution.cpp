#include "tests/common/testregistry.h"
#include "engine/attention/attribution.h"
#include "engine/attention/outputlogprob.h"
#include "engine/attention/seq2seqmodel.h"
#include "engine/attention/seq2seqnet.h"
#include "engine/attention/wordremovaleffect.h"
#include "engine/core/runtime.h"
#include "tests/common/tinymodel.h"

#include <QtTest>

#include <cmath>
#include <numeric>
#include <stdexcept>

namespace {

const std::vector<std::string> kSentence{"the", "cat", "sat", "on", "a", "mat", "today"};

std::vector<std::string> tinyWords()
{
    return {"red", "green", "blue", "cat", "dog"};
}

// f_t = log P(y_t) for every step of `output`, with the encoder's embedding of `word` scaled by
// `scale`: a directional derivative along that word's own embedding is e_i . df/de_i.
std::vector<double> stepLogProbsWithScaledWord(const Seq2SeqModel &model, const DecodedSentence &output,
                                               const std::vector<std::string> &words, const std::string &word,
                                               double scale)
{
    torch::NoGradGuard noGradients;
    torch::Tensor row = model.net()->encoder->embedding->weight[model.vocabulary().id(word)];
    const torch::Tensor original = row.clone();
    row.mul_(scale);
    const std::vector<double> logProbs = outputStepLogProbs(model, {words}, output).front();
    row.copy_(original);
    return logProbs;
}

int argmax(const std::vector<double> &values)
{
    return int(std::max_element(values.begin(), values.end()) - values.begin());
}

}

// Attribution methods that do not read attention, held to what they claim: the gradients to finite
// differences, integrated gradients to completeness, occlusion to word removal, and every method
// to the known answer of the bundled reversal model.
class TestAttribution : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void namesRoundTrip();
    void shapesAndStepScores();
    void inputTimesGradientIsTheDirectionalDerivative_data();
    void inputTimesGradientIsTheDirectionalDerivative();
    void saliencyIsTheGradientsLength();
    void integratedGradientsAreComplete();
    void occlusionAddsUpToWordRemoval();
    void everyMethodFindsTheMirroredWord();
    void contrastExplainsTheDifference();
    void oneRowIsThatRowOfTheWholeSentence();
    void slicesOnTwoThreadsGiveTheSameScores();
    void badInputIsRefused();

private:
    std::unique_ptr<Seq2SeqModel> m_model;
};

void TestAttribution::initTestCase()
{
    m_model = std::make_unique<Seq2SeqModel>(Seq2SeqModel::load(ATTNSCOPE_SOURCE_DIR "/resources/models/default.ckpt"));
}

void TestAttribution::namesRoundTrip()
{
    for (AttributionMethod method : allAttributionMethods()) {
        AttributionMethod parsed = AttributionMethod::Attention;
        QVERIFY(parseAttributionMethod(attributionMethodName(method), &parsed));
        QCOMPARE(int(parsed), int(method));
    }
    AttributionMethod unused;
    QVERIFY(!parseAttributionMethod("gradient", &unused));
    IntegrationBaseline baseline = IntegrationBaseline::Zero;
    QVERIFY(parseIntegrationBaseline("unknown", &baseline));
    QCOMPARE(int(baseline), int(IntegrationBaseline::Unknown));
    QVERIFY(!parseIntegrationBaseline("padding", &baseline));
}

void TestAttribution::shapesAndStepScores()
{
    AttributionOptions options;
    options.integrationSteps = 8;
    const SentenceAttribution a = attribute(*m_model, kSentence, options);
    QCOMPARE(a.words, kSentence);
    QCOMPARE(a.sentence.text(), std::string("today mat a on sat cat the"));
    QCOMPARE(int(a.maps.size()), 5);
    QCOMPARE(int(a.steps.size()), a.sentence.rows());
    for (const AttributionMap &map : a.maps) {
        QCOMPARE(map.rows, a.sentence.rows());
        QCOMPARE(map.columns, int(kSentence.size()));
        QCOMPARE(int(map.scores.size()), map.rows * map.columns);
    }
    // The step's own log P is what teacher forcing gives, and the model is sure of each word.
    const std::vector<double> logProbs = outputStepLogProbs(*m_model, {kSentence}, a.sentence).front();
    for (int t = 0; t < a.sentence.rows(); ++t) {
        const StepScore &s = a.steps[std::size_t(t)];
        QVERIFY(std::abs(s.logProb - logProbs[std::size_t(t)]) < 1e-4);
        QVERIFY(s.margin > 0);
        QVERIFY(s.entropy >= 0);
        QVERIFY(s.runnerUp != a.sentence.outputTokens[std::size_t(t)]);
    }
    QCOMPARE(a.map(AttributionMethod::Attention)->at(0, 6), double(a.sentence.weight(0, 6)));
}

// Each way the gradients are taken: by hand (a GRU with Bahdanau's attention, one layer or two of
// both directions), autograd's decoder on the hand-run encoder (other attention, the pointer), and
// autograd alone (an LSTM).
void TestAttribution::inputTimesGradientIsTheDirectionalDerivative_data()
{
    QTest::addColumn<int>("cell");
    QTest::addColumn<int>("attention");
    QTest::addColumn<int>("layers");
    QTest::addColumn<bool>("pointer");
    QTest::newRow("gru, bahdanau") << int(RecurrentCell::Gru) << int(AttentionKind::Bahdanau) << 1 << false;
    QTest::newRow("gru, bahdanau, 2 layers") << int(RecurrentCell::Gru) << int(AttentionKind::Bahdanau) << 2 << false;
    QTest::newRow("gru, location, pointer") << int(RecurrentCell::Gru) << int(AttentionKind::Location) << 1 << true;
    QTest::newRow("lstm, luong-general") << int(RecurrentCell::Lstm) << int(AttentionKind::LuongGeneral) << 1 << false;
}

void TestAttribution::inputTimesGradientIsTheDirectionalDerivative()
{
    QFETCH(int, cell);
    QFETCH(int, attention);
    QFETCH(int, layers);
    QFETCH(bool, pointer);
    ModelConfig config = tinyModelConfig();
    config.cell = RecurrentCell(cell);
    config.attention = AttentionKind(attention);
    config.layers = layers;
    config.pointer = pointer ? PointerMode::On : PointerMode::Off;
    const Seq2SeqModel model(config, Vocabulary(tinyWords()), /*seed=*/5);
    const std::vector<std::string> words{"red", "cat", "blue", "dog"};
    AttributionOptions options;
    options.methods = {AttributionMethod::InputTimesGradient};
    const SentenceAttribution a = attribute(model, words, options);
    constexpr double kStep = 1e-2;
    for (int i = 0; i < int(words.size()); ++i) {
        const auto up = stepLogProbsWithScaledWord(model, a.sentence, words, words[std::size_t(i)], 1 + kStep);
        const auto down = stepLogProbsWithScaledWord(model, a.sentence, words, words[std::size_t(i)], 1 - kStep);
        for (int t = 0; t < a.sentence.rows(); ++t) {
            const double finite = (up[std::size_t(t)] - down[std::size_t(t)]) / (2 * kStep);
            const double analytic = a.maps.front().at(t, i);
            QVERIFY2(std::abs(finite - analytic) < 1e-3 + 1e-2 * std::abs(analytic),
                     qPrintable(QString("step %1 word %2: %3 against %4").arg(t).arg(i).arg(finite).arg(analytic)));
        }
    }
}

void TestAttribution::saliencyIsTheGradientsLength()
{
    const Seq2SeqModel model(tinyModelConfig(), Vocabulary(tinyWords()), /*seed=*/7);
    const std::vector<std::string> words{"green", "dog", "red"};
    AttributionOptions options;
    options.methods = {AttributionMethod::Saliency};
    const SentenceAttribution a = attribute(model, words, options);
    // The gradient over the word's embedding, one coordinate at a time.
    const int word = 1, id = model.vocabulary().id(words[word]);
    torch::NoGradGuard noGradients;
    torch::Tensor row = model.net()->encoder->embedding->weight[id];
    constexpr double kStep = 1e-2;
    std::vector<double> squares(std::size_t(a.sentence.rows()), 0.0);
    for (int64_t j = 0; j < row.size(0); ++j) {
        const float original = row[j].item<float>();
        row[j] = original + kStep;
        const std::vector<double> up = outputStepLogProbs(model, {words}, a.sentence).front();
        row[j] = original - kStep;
        const std::vector<double> down = outputStepLogProbs(model, {words}, a.sentence).front();
        row[j] = original;
        for (std::size_t t = 0; t < squares.size(); ++t)
            squares[t] += std::pow((up[t] - down[t]) / (2 * kStep), 2);
    }
    for (int t = 0; t < a.sentence.rows(); ++t)
        QVERIFY(std::abs(std::sqrt(squares[std::size_t(t)]) - a.maps.front().at(t, word)) <
                1e-3 + 1e-2 * a.maps.front().at(t, word));
}

void TestAttribution::integratedGradientsAreComplete()
{
    for (IntegrationBaseline baseline : {IntegrationBaseline::Zero, IntegrationBaseline::Unknown}) {
        AttributionOptions options;
        options.methods = {AttributionMethod::IntegratedGradients};
        options.baseline = baseline;
        const SentenceAttribution a = attribute(*m_model, kSentence, options);
        QCOMPARE(int(a.completenessGap.size()), a.sentence.rows());
        for (int t = 0; t < a.sentence.rows(); ++t) {
            const std::vector<double> row = a.maps.front().row(t);
            const double sum = std::accumulate(row.begin(), row.end(), 0.0);
            QCOMPARE(a.completenessGap[std::size_t(t)], std::abs(sum - a.integrationDelta[std::size_t(t)]));
            QVERIFY2(a.completenessGap[std::size_t(t)] <= 0.01 * std::abs(a.integrationDelta[std::size_t(t)]),
                     qPrintable(QString("%1 baseline, step %2: gap %3 of %4")
                                    .arg(integrationBaselineName(baseline))
                                    .arg(t)
                                    .arg(a.completenessGap[std::size_t(t)])
                                    .arg(a.integrationDelta[std::size_t(t)])));
        }
    }
}

void TestAttribution::occlusionAddsUpToWordRemoval()
{
    for (RemovalMode mode : {RemovalMode::Drop, RemovalMode::Unknown}) {
        AttributionOptions options;
        options.methods = {AttributionMethod::Occlusion};
        options.occlusion = mode;
        const SentenceAttribution a = attribute(*m_model, kSentence, options);
        const WordRemovalEffect removal = measureWordRemoval(*m_model, kSentence, mode);
        for (int i = 0; i < int(kSentence.size()); ++i) {
            double sum = 0;
            for (int t = 0; t < a.sentence.rows(); ++t)
                sum += a.maps.front().at(t, i);
            QVERIFY(std::abs(sum - removal.words[std::size_t(i)].logProbFall) < 1e-4);
        }
    }
}

// The bundled model reverses: output step t is source word n-1-t, and each method must say so.
void TestAttribution::everyMethodFindsTheMirroredWord()
{
    const SentenceAttribution a = attribute(*m_model, kSentence);
    const int n = int(kSentence.size());
    for (const AttributionMap &map : a.maps)
        for (int t = 0; t < n; ++t)
            QVERIFY2(argmax(map.row(t)) == n - 1 - t,
                     qPrintable(QString("%1, step %2: word %3").arg(attributionMethodName(map.method)).arg(t).arg(argmax(map.row(t)))));
}

void TestAttribution::contrastExplainsTheDifference()
{
    AttributionOptions options;
    options.integrationSteps = 64;
    const SentenceAttribution a = attribute(*m_model, kSentence, options);
    const int row = 1;  // "mat"
    const ContrastiveAttribution c = attributeContrast(*m_model, a, row, "cat", options);
    QCOMPARE(c.row, row);
    QCOMPARE(int(c.maps.size()), int(a.maps.size()));
    // log P(mat) - log P(cat) from the steps' scores agrees with f, and the model prefers "mat".
    QVERIFY(c.logProbDifference > 0);
    for (const AttributionMap &map : c.maps) {
        QCOMPARE(map.rows, 1);
        QCOMPARE(map.columns, int(kSentence.size()));
    }
    // The words that decide between "mat" and "cat" are those two.
    const std::vector<double> ig = c.maps[3].row(0);
    const int top = argmax(ig);
    QVERIFY2(top == 5 || top == 1, qPrintable(QString("top word %1").arg(top)));
    QCOMPARE(c.maps.front().scores, a.maps.front().row(row));
}

void TestAttribution::oneRowIsThatRowOfTheWholeSentence()
{
    const SentenceAttribution whole = attribute(*m_model, kSentence);
    QCOMPARE(whole.gradientRow, -1);
    AttributionOptions options;
    options.gradientRow = 2;
    const SentenceAttribution one = attribute(*m_model, kSentence, options);
    QCOMPARE(one.gradientRow, 2);
    QCOMPARE(one.maps.size(), whole.maps.size());
    for (std::size_t m = 0; m < one.maps.size(); ++m) {
        const AttributionMethod method = one.maps[m].method;
        const bool gradients = attributionReadsGradients(method);
        QCOMPARE(one.explains(method), !gradients);
        QVERIFY(whole.explains(method));
        for (int t = 0; t < one.sentence.rows(); ++t) {
            QCOMPARE(one.explains(method, t), !gradients || t == 2);
            for (int i = 0; i < one.maps[m].columns; ++i) {
                if (one.explains(method, t))
                    QVERIFY(std::abs(one.maps[m].at(t, i) - whole.maps[m].at(t, i)) < 1e-5);
                else
                    QVERIFY(std::isnan(one.maps[m].at(t, i)));
            }
        }
    }
    for (int t = 0; t < one.sentence.rows(); ++t)
        QCOMPARE(std::isnan(one.completenessGap[std::size_t(t)]), t != 2);
    QVERIFY(std::abs(one.integrationDelta[2] - whole.integrationDelta[2]) < 1e-5);

    options.gradientRow = one.sentence.rows();  // beyond the output: no row, and no error
    const SentenceAttribution none = attribute(*m_model, kSentence, options);
    for (int t = 0; t < none.sentence.rows(); ++t)
        QVERIFY(!none.explains(AttributionMethod::IntegratedGradients, t));
    QVERIFY(none.explains(AttributionMethod::Occlusion, 0));
}

void TestAttribution::slicesOnTwoThreadsGiveTheSameScores()
{
    const SentenceAttribution one = attribute(*m_model, kSentence);
    SentenceAttribution two;
    {
        const runtime::IntraOpThreads threads(2);  // the 66 points in two slices of 33
        two = attribute(*m_model, kSentence);
    }
    QCOMPARE(two.maps.size(), one.maps.size());
    for (std::size_t m = 0; m < one.maps.size(); ++m)
        for (std::size_t k = 0; k < one.maps[m].scores.size(); ++k)
            QVERIFY2(std::abs(two.maps[m].scores[k] - one.maps[m].scores[k]) < 1e-5,
                     attributionMethodName(one.maps[m].method));
    for (std::size_t t = 0; t < one.completenessGap.size(); ++t)
        QVERIFY(std::abs(two.integrationDelta[t] - one.integrationDelta[t]) < 1e-5);
}

void TestAttribution::badInputIsRefused()
{
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, attribute(*m_model, {"alone"}));
    AttributionOptions options;
    options.integrationSteps = 0;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, attribute(*m_model, kSentence, options));
    options = {};
    options.methods.clear();
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, attribute(*m_model, kSentence, options));
    options = {};
    options.methods = {AttributionMethod::Saliency};
    const SentenceAttribution a = attribute(*m_model, kSentence, options);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, attributeContrast(*m_model, a, 99, "cat", options));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, attributeContrast(*m_model, a, 0, "today", options));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, attributeContrast(*m_model, a, 0, "zzzqx", options));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, attributeContrast(*m_model, a, 0, "<PAD>", options));
}

ATTNSCOPE_TEST(attribution, TestAttribution)
#include "tst_attribution.moc"
