#include "tests/common/testregistry.h"
#include "engine/attention/attentionexplanation.h"
#include "tests/common/attentionkindname.h"
#include "tests/common/tinymodel.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>

namespace {

double dot(const std::vector<double> &a, const std::vector<double> &b)
{
    double sum = 0;
    for (std::size_t i = 0; i < a.size(); ++i)
        sum += a[i] * b[i];
    return sum;
}

// Every cell of `sentence` explained: weights equal the decoder's, each row's softmax sums to 1,
// the score follows from the explanation's own intermediates, and the shares add up to c.
void checkEveryCell(const Seq2SeqModel &model, const DecodedSentence &sentence)
{
    QVERIFY(sentence.rows() > 1);
    const AttentionKind kind = model.config().attention;
    // A row far from uniform (its largest weight over 1.5 times the uniform one; scaled-dot's softer
    // scores give 0.6 on a two-word sentence), so a wrong state or key could not pass by luck.
    bool peaked = false;
    for (int t = 0; t < sentence.rows(); ++t) {
        double alongContext = 0;
        for (int j = 0; j < sentence.columns(); ++j) {
            const AttentionExplanation e = explainAttention(model, sentence, t, j);
            QCOMPARE(e.kind, kind);
            QCOMPARE(int(e.weights.size()), sentence.columns());
            QCOMPARE(int(e.scores.size()), sentence.columns());
            for (int k = 0; k < sentence.columns(); ++k)
                QVERIFY2(std::abs(e.weights[std::size_t(k)] - double(sentence.weight(t, k))) < 1e-4,
                         qPrintable(QStringLiteral("step %1 position %2: %3 vs the decoder's %4")
                                        .arg(t).arg(k).arg(e.weights[std::size_t(k)]).arg(sentence.weight(t, k))));
            double sum = 0;
            for (double w : e.weights)
                sum += w;
            QVERIFY(std::abs(sum - 1.0) < 1e-9);
            peaked |= *std::max_element(e.weights.begin(), e.weights.end()) > 1.5 / sentence.columns();

            double score = 0;
            if (!isMultiplicative(kind)) {
                QCOMPARE(e.query.size(), e.key.size());
                QCOMPARE(e.energy.size(), e.key.size());
                const bool location = kind == AttentionKind::Location;
                QCOMPARE(e.location.size(), location ? e.key.size() : 0);
                // a_{t-1} is the heatmap's row above (zeros before the first row).
                QCOMPARE(int(e.previousWeights.size()), location ? sentence.columns() : 0);
                for (int k = 0; k < int(e.previousWeights.size()); ++k)
                    QVERIFY(std::abs(e.previousWeights[std::size_t(k)]
                                     - (t == 0 ? 0.0 : double(sentence.weight(t - 1, k)))) < 1e-4);
                for (std::size_t i = 0; i < e.key.size(); ++i) {
                    const double energy = std::tanh(e.query[i] + e.key[i] + (location ? e.location[i] : 0.0));
                    QVERIFY(std::abs(energy - e.energy[i]) < 1e-9);
                    score += e.scoreWeights[i] * energy;
                }
            } else {
                QVERIFY(e.query.empty() && e.energy.empty());
                if (kind == AttentionKind::LuongDot)
                    QCOMPARE(e.key, e.encoderState);
                const double root = std::sqrt(double(e.encoderState.size()));
                for (std::size_t i = 0; kind == AttentionKind::ScaledDot && i < e.key.size(); ++i)
                    QVERIFY(std::abs(e.key[i] * root - e.encoderState[i]) < 1e-6);
                score = dot(e.state, e.key);
            }
            QVERIFY2(std::abs(score - e.score()) < 1e-9,
                     qPrintable(QStringLiteral("%1 vs %2").arg(score).arg(e.score())));

            QCOMPARE(e.share.size(), e.encoderState.size());
            for (std::size_t i = 0; i < e.share.size(); ++i)
                QVERIFY(std::abs(e.share[i] - e.weight() * e.encoderState[i]) < 1e-12);
            alongContext += e.shareAlongContext;
        }
        QVERIFY2(std::abs(alongContext - 1.0) < 1e-6, qPrintable(QString::number(alongContext)));
    }
    QVERIFY(peaked);
}

}

// explainAttention (engine/attention/attentionexplanation.h) against the model's own forward pass:
// the weights the heatmap shows (decode(): InferenceNet for Bahdanau, the op-by-op decoder for
// Luong; beamDecode()), and the score recomputed from the explanation's intermediates.
class TestAttentionExplanation : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void explainsEveryCellOfAGreedyDecode_data();
    void explainsEveryCellOfAGreedyDecode();
    void explainsABeamSearchResult();
    void bundledModelWithAnUnknownWord();
    void rejectsWhatItCannotExplain();

private:
    std::map<QString, std::unique_ptr<Seq2SeqModel>> m_models;
};

void TestAttentionExplanation::initTestCase()
{
    // A few epochs of the quick task: attention already far from uniform, in about a second.
    const DatasetConfig data = quickDataset();
    const Dataset dataset = Dataset::build(data);
    const Vocabulary vocabulary = Vocabulary::build(dataset.train);
    for (const char *name : {"bahdanau", "luong-dot", "luong-general", "location", "scaled-dot", "bahdanau-after"}) {
        for (int layers : {1, 2}) {
            ModelConfig config = quickModelConfig();
            config.attention = kindOf(QString::fromLatin1(name));
            config.layers = layers;
            config.bidirectional = layers == 2;
            auto model = std::make_unique<Seq2SeqModel>(config, vocabulary, 5);
            model->datasetConfig = data;
            Trainer trainer(*model, dataset, quickTraining(8));
            QCOMPARE(trainer.run().status, TrainingOutcome::Status::Finished);
            m_models[QStringLiteral("%1, %2 layers").arg(QString::fromLatin1(name)).arg(layers)] = std::move(model);
        }
    }
}

void TestAttentionExplanation::explainsEveryCellOfAGreedyDecode_data()
{
    QTest::addColumn<QString>("model");
    QTest::addColumn<QString>("sentence");
    for (const auto &item : m_models) {
        QTest::newRow(qPrintable(item.first + ", short")) << item.first << QStringLiteral("red cat");
        QTest::newRow(qPrintable(item.first + ", long")) << item.first << QStringLiteral("blue dog fish green red");
    }
}

void TestAttentionExplanation::explainsEveryCellOfAGreedyDecode()
{
    QFETCH(QString, model);
    QFETCH(QString, sentence);
    const Seq2SeqModel &m = *m_models.at(model);
    checkEveryCell(m, m.reverse(sentence.toStdString()));
}

void TestAttentionExplanation::explainsABeamSearchResult()
{
    for (const auto &item : m_models) {
        BeamOptions beam;
        beam.width = 3;
        const BeamDecoded decoded = item.second->beamReverse("green fish dog cat", beam);
        QVERIFY(!decoded.nbest.empty());
        for (const ScoredSentence &scored : decoded.nbest)
            checkEveryCell(*item.second, scored.sentence);
    }
}

void TestAttentionExplanation::bundledModelWithAnUnknownWord()
{
    const Seq2SeqModel bundled = Seq2SeqModel::load(ATTNSCOPE_SOURCE_DIR "/resources/models/default.ckpt");
    const DecodedSentence sentence = bundled.reverse("the quork sat on the mat");
    QVERIFY(std::find(sentence.outputCopied.begin(), sentence.outputCopied.end(), true) != sentence.outputCopied.end());
    checkEveryCell(bundled, sentence);
}

void TestAttentionExplanation::rejectsWhatItCannotExplain()
{
    const Seq2SeqModel &model = *m_models.at(QStringLiteral("bahdanau, 1 layers"));
    const DecodedSentence sentence = model.reverse("red cat");
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, explainAttention(model, sentence, sentence.rows(), 0));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, explainAttention(model, sentence, 0, -1));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, explainAttention(model, DecodedSentence{}, 0, 0));

    ModelConfig config = quickModelConfig();
    config.attention = AttentionKind::None;
    const Seq2SeqModel none(config, model.vocabulary(), 1);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, explainAttention(none, none.reverse("red cat"), 0, 0));
}

ATTNSCOPE_TEST(attentionexplanation, TestAttentionExplanation)
#include "tst_attentionexplanation.moc"
