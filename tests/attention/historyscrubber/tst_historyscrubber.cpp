#include "tests/common/testregistry.h"
#include "engine/attention/weighthistory.h"
#include "tests/common/workbenchfixture.h"
#include "ui/workbench/workbenchfiles.h"
#include "ui/attention/attentionexports.h"
#include "ui/attention/attentionlab.h"
#include "ui/attention/embeddingpanel.h"
#include "ui/attention/historyscrubber.h"
#include "ui/attention/inferencepanel.h"
#include "ui/attention/losspanel.h"
#include "ui/core/embeddingplot.h"
#include "ui/core/lossplot.h"
#include "ui/workbench/mainwindow.h"

#include <QAction>
#include <QDir>
#include <QImage>
#include <QPushButton>
#include <QSlider>
#include <QTemporaryDir>
#include <QtTest>

// The run's history on the Reverse page: the epoch chosen on the slider decodes with that epoch's
// weights, moves the loss plot's marker and the embedding map, Latest goes back to the live model,
// chosen words trail through their places, the frames of every epoch can be written, and a model
// opened from a file has no history to scrub.
class TestHistoryScrubber : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();

    void theSliderGrowsWithTheEpochs();
    void anEpochDecodesWithItsOwnWeights();
    void latestReturnsToTheLiveModel();
    void trailsHaveOnePointPerEpochUpToTheShownOne();
    void playStepsToTheLastEpochAndStops();
    void framesAreWrittenForEveryEpoch();
    void anOpenedModelHasNoHistory();

private:
    void trainThreeEpochs();

    static constexpr int kEpochs = 3;
    const QString kSentence = QStringLiteral("red cat dog");
    std::vector<ModelSnapshot> m_models;  // untrained, each with its own weights: one per "epoch"
    MainWindow *m_window = nullptr;
    AttentionLab *m_lab = nullptr;
    HistoryScrubber *m_scrubber = nullptr;
};

void TestHistoryScrubber::initTestCase()
{
    useTestSettings(QStringLiteral("tst_historyscrubber"));
    const Vocabulary vocabulary({"red", "green", "blue", "cat", "dog", "fish"});
    for (int epoch = 1; epoch <= kEpochs; ++epoch)
        m_models.push_back(std::make_shared<const Seq2SeqModel>(quickModelConfig(), vocabulary, 10 + epoch));
}

void TestHistoryScrubber::init()
{
    m_window = shownWorkbench();
    QVERIFY(QTest::qWaitForWindowExposed(m_window));
    m_lab = m_window->lab<AttentionLab>();
    m_scrubber = m_lab->historyScrubber();
    m_lab->inferencePanel()->setText(kSentence);
}

void TestHistoryScrubber::cleanup()
{
    delete m_window;
    m_window = nullptr;
}

// What the worker reports at the end of each epoch, without a worker.
void TestHistoryScrubber::trainThreeEpochs()
{
    for (int epoch = 1; epoch <= kEpochs; ++epoch) {
        EpochStats stats;
        stats.epoch = epoch;
        stats.trainLoss = stats.valLoss = 3.0 / epoch;
        m_lab->receiveResult(QVariant::fromValue(epochTrained(stats, true, m_models[std::size_t(epoch - 1)], std::nullopt)));
    }
}

void TestHistoryScrubber::theSliderGrowsWithTheEpochs()
{
    QVERIFY(!m_scrubber->slider()->isEnabled());
    for (int epoch = 1; epoch <= kEpochs; ++epoch) {
        EpochStats stats;
        stats.epoch = epoch;
        m_lab->receiveResult(QVariant::fromValue(epochTrained(stats, true, m_models[std::size_t(epoch - 1)], std::nullopt)));
        QVERIFY(m_scrubber->slider()->isEnabled());
        QCOMPARE(m_scrubber->slider()->maximum(), epoch - 1);
        QCOMPARE(m_scrubber->shownEpoch(), 0);  // the live model until the user scrubs
        // Two bytes per weight per epoch kept: what docs/benchmarks.md's figure for the default run rests on.
        QCOMPARE(m_lab->weightHistory().bytes(), std::size_t(epoch) * 2 * std::size_t(m_models.front()->parameterCount()));
    }
    QVERIFY(m_lab->exports()->historyFramesAction()->isEnabled());
}

void TestHistoryScrubber::anEpochDecodesWithItsOwnWeights()
{
    trainThreeEpochs();
    InferencePanel *panel = m_lab->inferencePanel();
    const DecodedSentence live = panel->sentence();
    m_scrubber->slider()->setFocus();
    QTest::keyClick(m_scrubber->slider(), Qt::Key_Home);  // epoch 1
    QTest::keyClick(m_scrubber->slider(), Qt::Key_Right);  // epoch 2
    QCOMPARE(m_scrubber->shownEpoch(), 2);

    const Seq2SeqModel epoch2 = m_lab->weightHistory().modelAt(2, *m_lab->latestModel());
    const DecodedSentence expected = epoch2.reverse(kSentence.toStdString());
    QVERIFY(panel->hasSentence());
    QCOMPARE(panel->sentence().outputTokens, expected.outputTokens);
    QCOMPARE(panel->sentence().attention, expected.attention);
    QVERIFY(panel->sentence().attention != live.attention);  // not the live model's
    QVERIFY(m_lab->lossPanel()->plot()->hasMarker());
    QCOMPARE(m_lab->lossPanel()->plot()->markerEpoch(), 2.0);
    QVERIFY(m_scrubber->label().contains(QStringLiteral("Epoch 2 of 3")));
    QCOMPARE(m_lab->embeddingPanel()->plot()->wordCount(), int(epoch2.vocabulary().size()));
}

void TestHistoryScrubber::latestReturnsToTheLiveModel()
{
    trainThreeEpochs();
    InferencePanel *panel = m_lab->inferencePanel();
    const ModelSnapshot live = panel->currentModel();
    const DecodedSentence liveSentence = panel->sentence();
    m_scrubber->showEpoch(1);
    QVERIFY(panel->currentModel() != live);
    QVERIFY(m_scrubber->latestButton()->isEnabled());
    QTest::mouseClick(m_scrubber->latestButton(), Qt::LeftButton);
    QCOMPARE(m_scrubber->shownEpoch(), 0);
    QCOMPARE(panel->currentModel(), live);
    QCOMPARE(panel->sentence().attention, liveSentence.attention);
    QVERIFY(!m_lab->lossPanel()->plot()->hasMarker());
    QVERIFY(!m_scrubber->latestButton()->isEnabled());
}

void TestHistoryScrubber::trailsHaveOnePointPerEpochUpToTheShownOne()
{
    trainThreeEpochs();
    EmbeddingPanel *embeddings = m_lab->embeddingPanel();
    QCOMPARE(embeddings->plot()->findWord(QStringLiteral("cat")) >= 0, true);
    QCOMPARE(embeddings->trailLength(QStringLiteral("cat")), 0);  // the live map has no trails
    for (int epoch = 1; epoch <= kEpochs; ++epoch) {
        m_scrubber->showEpoch(epoch);
        QCOMPARE(embeddings->trailLength(QStringLiteral("cat")), epoch);
        // The selection survives the step, and its neighbours trail too.
        QCOMPARE(embeddings->plot()->word(embeddings->plot()->selectedWord()), QStringLiteral("cat"));
        QVERIFY(!embeddings->plot()->neighbours().empty());
        const QString neighbour = embeddings->plot()->word(embeddings->plot()->neighbours().front().index);
        QCOMPARE(embeddings->trailLength(neighbour), epoch);
    }
    m_scrubber->showEpoch(2);
    QCOMPARE(embeddings->trailLength(QStringLiteral("cat")), 2);
    m_scrubber->showLatest();
    QCOMPARE(embeddings->trailLength(QStringLiteral("cat")), 0);
}

void TestHistoryScrubber::playStepsToTheLastEpochAndStops()
{
    trainThreeEpochs();
    QTest::mouseClick(m_scrubber->playButton(), Qt::LeftButton);
    QVERIFY(m_scrubber->playing());
    QCOMPARE(m_scrubber->shownEpoch(), 1);  // from the start
    QTRY_COMPARE(m_scrubber->shownEpoch(), kEpochs);
    QTRY_VERIFY(!m_scrubber->playing());
    QCOMPARE(m_scrubber->shownEpoch(), kEpochs);
}

void TestHistoryScrubber::framesAreWrittenForEveryEpoch()
{
    trainThreeEpochs();
    m_scrubber->showEpoch(2);
    QTemporaryDir dir;
    QString error;
    QList<int> reported;
    QVERIFY2(m_lab->exports()->writeHistoryFrames(dir.path(), &error,
                                                  [&reported](int done, int) {
                                                      reported << done;
                                                      return true;
                                                  }),
             qPrintable(error));
    QCOMPARE(reported, (QList<int>{0, 1, 2}));
    for (const QString &series : {QStringLiteral("heatmap"), QStringLiteral("embeddings")}) {
        QList<QImage> frames;
        for (int frame = 1; frame <= kEpochs; ++frame) {
            const QString path = dir.filePath(QStringLiteral("%1_%2.png").arg(series).arg(frame, 3, 10, QLatin1Char('0')));
            frames << QImage(path);
            QVERIFY2(!frames.back().isNull(), qPrintable(path));
        }
        // Each frame shows its own epoch: the first and the last differ.
        QVERIFY2(frames.front() != frames.back(), qPrintable(series));
    }
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files).size(), 2 * kEpochs);
    QCOMPARE(m_scrubber->shownEpoch(), 2);  // put back

    QVERIFY(!m_lab->exports()->writeHistoryFrames(dir.filePath(QStringLiteral("missing")), &error));
    QVERIFY2(error.contains(QStringLiteral("does not exist")), qPrintable(error));
}

void TestHistoryScrubber::anOpenedModelHasNoHistory()
{
    trainThreeEpochs();
    m_scrubber->showEpoch(2);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("model.ckpt"));
    m_models.back()->save(QFile::encodeName(path).toStdString());
    QString error;
    QVERIFY2(m_window->files()->openFile(path, &error), qPrintable(error));
    QVERIFY(m_lab->weightHistory().empty());
    QCOMPARE(m_scrubber->shownEpoch(), 0);
    QVERIFY(!m_scrubber->replay());
    QVERIFY(!m_scrubber->slider()->isEnabled());
    QVERIFY(!m_scrubber->playButton()->isEnabled());
    QVERIFY2(m_scrubber->label().contains(QStringLiteral("model file")), qPrintable(m_scrubber->label()));
    QVERIFY(!m_lab->lossPanel()->plot()->hasMarker());
    QVERIFY(!m_lab->exports()->historyFramesAction()->isEnabled());
}

ATTNSCOPE_TEST(historyscrubber, TestHistoryScrubber)
#include "tst_historyscrubber.moc"
