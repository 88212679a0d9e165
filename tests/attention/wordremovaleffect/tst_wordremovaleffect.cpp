#include "tests/common/testregistry.h"
#include "engine/attention/outputlogprob.h"
#include "engine/attention/seq2seqmodel.h"
#include "engine/attention/wordremovaleffect.h"
#include "engine/core/dataset.h"
#include "engine/core/rankcorrelation.h"
#include "engine/core/tokenizer.h"
#include "tests/common/tinymodel.h"

#include <QtTest>

#include <cmath>
#include <stdexcept>

namespace {

const char *const kSentence = "the cat sat on the mat";

// A sentence's effect with the given correlation and, per word, whether its removal kept y and
// whether the changed source decoded to what the task asks.
WordRemovalEffect handMade(double spearman, const QList<bool> &unchanged, const QList<bool> &expected,
                           const QList<double> &falls)
{
    WordRemovalEffect effect;
    effect.spearman = spearman;
    for (int i = 0; i < unchanged.size(); ++i) {
        WordRemoval w;
        w.outputUnchanged = unchanged[i];
        w.changedOutputExpected = expected[i];
        w.logProbFall = falls[i];
        effect.words.push_back(w);
    }
    return effect;
}

}

// Taking each input word out in turn, on the bundled model, whose right answer is known: it
// reverses the sentence, so without a word it must reverse the rest, and the original output
// (which still holds the word) must become far less likely.
class TestWordRemovalEffect : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void teacherForcedScoreIsWhatGreedyDecodingSaw();
    void batchedScoresEqualOneAtATime();
    void droppingAWordCostsTheOutputMuch();
    void unknownWordKeepsTheOutputLength();
    void attentionAndCorrelationComeFromTheDecode();
    void tooShortOrNoAttentionIsRefused();
    void summaryOverSentences();

private:
    std::unique_ptr<Seq2SeqModel> m_model;
};

void TestWordRemovalEffect::initTestCase()
{
    m_model = std::make_unique<Seq2SeqModel>(Seq2SeqModel::load(ATTNSCOPE_SOURCE_DIR "/resources/models/default.ckpt"));
    QCOMPARE(QString::fromStdString(m_model->reverse(kSentence).text()), QStringLiteral("mat the on sat cat the"));
}

// Beam search of width 1 is greedy decoding and adds up the log-probability of each step it takes
// (through InferenceNet); teacher forcing scores the same tokens through the batched network.
void TestWordRemovalEffect::teacherForcedScoreIsWhatGreedyDecodingSaw()
{
    BeamOptions greedy;
    greedy.width = 1;
    for (const char *sentence : {kSentence, "a zebra sat", "dog cat fish bird the a on in"}) {
        const std::vector<std::string> words = tokenize(sentence);
        const BeamDecoded decoded = m_model->beamDecode(words, greedy);
        QCOMPARE(decoded.nbest.size(), std::size_t(1));
        const ScoredSentence &best = decoded.nbest.front();
        QCOMPARE(best.sentence.outputTokens, m_model->decode(words).outputTokens);
        const double forced = outputLogProbs(*m_model, {words}, best.sentence).front();
        QVERIFY2(std::abs(forced - best.logProb) < 1e-3,
                 qPrintable(QString("%1: %2 vs %3").arg(sentence).arg(forced).arg(best.logProb)));
        QVERIFY(forced <= 0);
        const WordRemovalEffect effect = measureWordRemoval(*m_model, words, RemovalMode::Drop);
        QVERIFY(std::abs(effect.logProb - best.logProb) < 1e-3);
    }
}

// Sources of different lengths in one padded batch score as each does alone.
void TestWordRemovalEffect::batchedScoresEqualOneAtATime()
{
    const std::vector<std::vector<std::string>> sources = {tokenize(kSentence), tokenize("the cat sat"),
                                                           tokenize("mat on the cat sat the dog bird")};
    const DecodedSentence output = m_model->reverse(kSentence);
    const std::vector<double> batched = outputLogProbs(*m_model, sources, output);
    QCOMPARE(batched.size(), sources.size());
    for (std::size_t i = 0; i < sources.size(); ++i)
        QVERIFY(std::abs(batched[i] - outputLogProbs(*m_model, {sources[i]}, output).front()) < 1e-3);
    // The right source makes its own output likelier than the others do.
    QVERIFY(batched[0] > batched[1] && batched[0] > batched[2]);
}

void TestWordRemovalEffect::droppingAWordCostsTheOutputMuch()
{
    const std::vector<std::string> words = tokenize(kSentence);
    const WordRemovalEffect effect = measureWordRemoval(*m_model, words, RemovalMode::Drop);
    QCOMPARE(effect.words.size(), words.size());
    for (std::size_t i = 0; i < words.size(); ++i) {
        const WordRemoval &w = effect.words[i];
        QCOMPARE(w.word, words[i]);
        // y still holds the dropped word, which the model can no longer read: y must become at
        // least e^2 times less likely (the fall is log P(y | x) minus log P(y | x without it)).
        QVERIFY2(w.logProbFall > 2, qPrintable(QString("%1: %2").arg(QString::fromStdString(w.word)).arg(w.logProbFall)));
        std::vector<std::string> rest = words;
        rest.erase(rest.begin() + std::ptrdiff_t(i));
        QCOMPARE(w.changedOutput, targetFor(Task::Reverse, rest));
        QVERIFY(w.changedOutputExpected);
        QVERIFY(!w.outputUnchanged);
    }
    const WordRemovalSummary summary = summarizeWordRemoval({effect});
    QCOMPARE(summary.words, int(words.size()));
    QCOMPARE(summary.changedOutputs, int(words.size()));
    QCOMPARE(summary.expectedOutputs, int(words.size()));
}

void TestWordRemovalEffect::unknownWordKeepsTheOutputLength()
{
    const std::vector<std::string> words = tokenize(kSentence);
    const WordRemovalEffect effect = measureWordRemoval(*m_model, words, RemovalMode::Unknown);
    for (const WordRemoval &w : effect.words) {
        QCOMPARE(w.changedOutput.size(), words.size());
        // The model cannot know which word stood there, so y, which names it, loses likelihood.
        QVERIFY2(w.logProbFall > 0, qPrintable(QString::number(w.logProbFall)));
    }
}

void TestWordRemovalEffect::attentionAndCorrelationComeFromTheDecode()
{
    const WordRemovalEffect effect = measureWordRemoval(*m_model, tokenize(kSentence), RemovalMode::Drop);
    const DecodedSentence &y = effect.original;
    std::vector<double> attention, falls;
    double onWords = 0;
    for (int column = 0; column + 1 < y.columns(); ++column) {
        double sum = 0, peak = 0;
        for (int row = 0; row < y.rows(); ++row) {
            sum += y.weight(row, column);
            peak = std::max(peak, double(y.weight(row, column)));
        }
        const WordRemoval &w = effect.words[std::size_t(column)];
        QVERIFY(std::abs(w.attention - sum) < 1e-9);
        QCOMPARE(w.peakAttention, peak);
        onWords += w.attention;
        attention.push_back(w.attention);
        falls.push_back(w.logProbFall);
    }
    // Each row sums to 1 over the words and the source's <EOS>.
    QVERIFY(onWords <= y.rows() + 1e-4);
    QCOMPARE(effect.spearman, spearmanCorrelation(attention, falls));
    QVERIFY(effect.spearman >= -1 && effect.spearman <= 1);

    // Two words: a rank correlation would be +1 or -1 whatever the model does.
    const WordRemovalEffect two = measureWordRemoval(*m_model, {"cat", "sat"}, RemovalMode::Unknown);
    QCOMPARE(two.words.size(), std::size_t(2));
    QVERIFY(std::isnan(two.spearman));
}

void TestWordRemovalEffect::tooShortOrNoAttentionIsRefused()
{
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, measureWordRemoval(*m_model, {}, RemovalMode::Drop));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, measureWordRemoval(*m_model, {"cat"}, RemovalMode::Unknown));
    ModelConfig config = tinyModelConfig();
    config.attention = AttentionKind::None;
    const Seq2SeqModel none(config, Vocabulary({"red", "cat", "dog"}), 1);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, measureWordRemoval(none, {"red", "cat", "dog"}, RemovalMode::Drop));
}

void TestWordRemovalEffect::summaryOverSentences()
{
    const std::vector<WordRemovalEffect> effects = {
        handMade(0.5, {false, false, true}, {true, true, false}, {1, 2, 3}),
        handMade(std::nan(""), {true, false}, {false, false}, {0, 4}),
        handMade(-0.25, {false, false, false}, {true, true, true}, {5, 5, 5}),
        handMade(1.0, {true, true, true}, {false, false, true}, {0, 0, 0}),
    };
    const WordRemovalSummary s = summarizeWordRemoval(effects);
    QCOMPARE(s.sentences, 4);
    QCOMPARE(s.words, 11);
    QCOMPARE(s.correlatedSentences, 3);  // the undefined one is left out, not counted as 0
    QCOMPARE(s.meanSpearman, (0.5 - 0.25 + 1.0) / 3);
    QCOMPARE(s.medianSpearman, 0.5);
    QCOMPARE(s.changedOutputs, 6);
    QCOMPARE(s.expectedOutputs, 6);
    QCOMPARE(s.meanLogProbFall, 25.0 / 11);
    const WordRemovalSummary even = summarizeWordRemoval({effects[0], effects[2]});
    QCOMPARE(even.medianSpearman, (0.5 - 0.25) / 2);
    const WordRemovalSummary none = summarizeWordRemoval({effects[1]});
    QVERIFY(std::isnan(none.meanSpearman) && std::isnan(none.medianSpearman));

    RemovalMode mode = RemovalMode::Drop;
    QVERIFY(parseRemovalMode("unknown", &mode) && mode == RemovalMode::Unknown);
    QVERIFY(!parseRemovalMode("remove", &mode));
}

ATTNSCOPE_TEST(wordremovaleffect, TestWordRemovalEffect)
#include "tst_wordremovaleffect.moc"
