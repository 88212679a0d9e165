#include "tests/common/testregistry.h"
#include "ui/attention/attentionjobs.h"
#include "app/workbench/trainingworker.h"
#include "tests/common/tinymodel.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <atomic>
#include <cmath>
#include <stdexcept>

namespace {

constexpr int kBatchesPerEpoch = (300 + 15) / 16;

}

// Collects the worker's reports on the test's thread. The connections are queued, as they are in
// the application, so reading the lists never races with the worker writing them.
class Recorder : public QObject
{
    Q_OBJECT
public:
    struct Epoch {
        EpochStats stats;
        bool isBest;
        ModelSnapshot snapshot;
        std::optional<AlignmentScore> alignment;
    };

    explicit Recorder(TrainingWorker *worker)
    {
        connect(worker, &TrainingWorker::started, this, [this](quint64, int epochs, const QString &unit, const QString &description) {
            started.push_back({epochs, unit, description});
        });
        connect(worker, &TrainingWorker::batchProgress, this, [this](quint64, const BatchProgress &p) { batches.push_back(p); });
        connect(worker, &TrainingWorker::pausedChanged, this, [this](bool p) { paused.push_back(p); });
        connect(worker, &TrainingWorker::reported, this, [this](quint64, const QVariant &result) {
            if (result.metaType() == QMetaType::fromType<EpochTrained>()) {
                const auto e = result.value<EpochTrained>();
                epochs.push_back({e.stats, e.isBest, e.snapshot, e.alignment});
            } else if (result.metaType() == QMetaType::fromType<TrainingFinished>()) {
                outcomes.push_back(result.value<TrainingFinished>().outcome);
                finalModels.push_back(result.value<TrainingFinished>().best);
            } else if (result.metaType() == QMetaType::fromType<EvaluationFinished>()) {
                reports.push_back(result.value<EvaluationFinished>().report);
                markdowns << result.value<EvaluationFinished>().analysisMarkdown;
            } else {
                others << result;
            }
        });
        connect(worker, &TrainingWorker::failed, this, [this](quint64, const QString &message) { failures << message; });
        connect(worker, &TrainingWorker::idle, this, [this](quint64) { ++idle; });
    }

    struct Started {
        int epochs;
        QString unit;
        QString description;
    };
    std::vector<Started> started;
    std::vector<BatchProgress> batches;
    std::vector<bool> paused;
    std::vector<Epoch> epochs;
    std::vector<TrainingOutcome> outcomes;
    std::vector<ModelSnapshot> finalModels;
    std::vector<EvaluationReport> reports;
    QStringList markdowns;
    QVariantList others;
    QStringList failures;
    int idle = 0;
};

class TestTrainingWorker : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void trainingReportsProgressEpochsAndEvaluation();
    void batchReportsAreInOrderAndFinite();
    void stopEndsTrainingWithinASecond();
    void pauseBlocksUntilResumed();
    void cancelSkipsEvaluation();
    void badDatasetIsReported_data();
    void badDatasetIsReported();
    void evaluatesAGivenModel();
    void anyLabsJobReportsThroughTheSameSignals();
    void aReportThatWaitsForTheWindowResumesOnceItIsHandled();
    void aBusyWindowHoldsTheJobNoLongerThanTheLimit();

private:
    QThread *m_thread = nullptr;
    TrainingWorker *m_worker = nullptr;
    Recorder *m_recorder = nullptr;
};

void TestTrainingWorker::init()
{
    m_thread = new QThread;
    m_worker = new TrainingWorker;
    m_worker->moveToThread(m_thread);
    connect(m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    m_recorder = new Recorder(m_worker);
    m_thread->start();
}

void TestTrainingWorker::cleanup()
{
    m_worker->requestCancel();
    m_thread->quit();
    QVERIFY(m_thread->wait(30000));
    delete m_thread;
    delete m_recorder;
    m_thread = nullptr;
    m_worker = nullptr;
    m_recorder = nullptr;
}

void TestTrainingWorker::trainingReportsProgressEpochsAndEvaluation()
{
    const Recorder &r = *m_recorder;
    const int kEpochs = 3;
    m_worker->submit(attentionTrainingJob(quickDataset(), quickModelConfig(), quickTraining(kEpochs)));
    QTRY_COMPARE_WITH_TIMEOUT(r.idle, 1, 120000);
    QVERIFY2(r.failures.isEmpty(), qPrintable(r.failures.join(QLatin1Char('\n'))));

    QCOMPARE(int(r.started.size()), 1);
    QCOMPARE(r.started[0].epochs, kEpochs);
    QCOMPARE(r.started[0].unit, QStringLiteral("sentences"));
    const QString &description = r.started[0].description;
    QVERIFY2(description.contains(QStringLiteral(" on 300 sentences")), qPrintable(description));
    QVERIFY2(description.contains(QStringLiteral("(10 words")), qPrintable(description));  // six and four special
    QVERIFY2(!description.contains(QStringLiteral("Training 0 parameters")), qPrintable(description));

    // Every epoch's last batch is reported, so the plot always reaches the epoch's end.
    QVERIFY(int(r.batches.size()) >= kEpochs);
    QVERIFY(int(r.batches.size()) <= kEpochs * kBatchesPerEpoch);
    int lastBatches = 0;
    for (const BatchProgress &p : r.batches) {
        QCOMPARE(p.batchesPerEpoch, kBatchesPerEpoch);
        QVERIFY(p.loss > 0);
        lastBatches += p.batch == p.batchesPerEpoch;
    }
    QCOMPARE(lastBatches, kEpochs);

    QCOMPARE(int(r.epochs.size()), kEpochs);
    for (int i = 0; i < kEpochs; ++i) {
        QCOMPARE(r.epochs[i].stats.epoch, i + 1);
        QVERIFY(r.epochs[i].snapshot);
        QCOMPARE(int(r.epochs[i].snapshot->history.size()), i + 1);
        QCOMPARE(r.epochs[i].snapshot->datasetConfig.words, quickDataset().words);
    }
    // Each epoch's alignment is measured on the validation set with that epoch's weights.
    const Dataset data = Dataset::build(quickDataset());
    for (const Recorder::Epoch &epoch : r.epochs) {
        QVERIFY(epoch.alignment);
        const AlignmentScore expected = measureAlignment(*epoch.snapshot, data.val, Task::Reverse);
        QVERIFY(expected.steps > 0);
        QCOMPARE(epoch.alignment->steps, expected.steps);
        QCOMPARE(epoch.alignment->alignedSteps, expected.alignedSteps);
    }
    QVERIFY(r.epochs[0].isBest);  // the first epoch is always the best so far
    // Snapshots are copies: each keeps the weights of its own epoch.
    QVERIFY(r.epochs[0].snapshot != r.epochs[1].snapshot);

    QCOMPARE(int(r.outcomes.size()), 1);
    QCOMPARE(r.outcomes[0].status, TrainingOutcome::Status::Finished);
    QVERIFY(r.finalModels[0]);

    QCOMPARE(int(r.reports.size()), 1);
    QCOMPARE(r.reports[0].sentences, 30);
    QCOMPARE(int(r.reports[0].examples.size()), 30);
    QVERIFY(!r.markdowns[0].isEmpty());
    QVERIFY2(r.markdowns[0].contains(QStringLiteral("After epoch %1 alignment accuracy was").arg(kEpochs)),
             qPrintable(r.markdowns[0]));
}

void TestTrainingWorker::batchReportsAreInOrderAndFinite()
{
    // Whatever was merged, reports come in batch order, once each, with finite values.
    const Recorder &r = *m_recorder;
    m_worker->submit(attentionTrainingJob(quickDataset(), quickModelConfig(), quickTraining(1)));
    QTRY_COMPARE_WITH_TIMEOUT(r.idle, 1, 120000);
    int previous = 0;
    for (const BatchProgress &p : r.batches) {
        QVERIFY(p.batch > previous);
        previous = p.batch;
        QVERIFY(std::isfinite(p.loss));
        QVERIFY(p.samplesPerSecond > 0);
    }
    QCOMPARE(previous, kBatchesPerEpoch);
}

void TestTrainingWorker::stopEndsTrainingWithinASecond()
{
    const Recorder &r = *m_recorder;
    m_worker->submit(attentionTrainingJob(quickDataset(), quickModelConfig(), quickTraining(10000)));
    QTRY_VERIFY_WITH_TIMEOUT(!r.batches.empty(), 60000);
    m_worker->requestStop();
    QTRY_COMPARE_WITH_TIMEOUT(int(r.outcomes.size()), 1, 1000);
    QCOMPARE(r.outcomes[0].status, TrainingOutcome::Status::Stopped);
    QTRY_COMPARE_WITH_TIMEOUT(r.idle, 1, 60000);
}

void TestTrainingWorker::pauseBlocksUntilResumed()
{
    const Recorder &r = *m_recorder;
    m_worker->submit(attentionTrainingJob(quickDataset(), quickModelConfig(), quickTraining(10000)));
    QTRY_VERIFY_WITH_TIMEOUT(!r.batches.empty(), 60000);
    m_worker->pause();
    QVERIFY(m_worker->isPaused());
    QTRY_COMPARE_WITH_TIMEOUT(int(r.paused.size()), 1, 5000);
    QCOMPARE(r.paused[0], true);

    // Reports sent before the pause took hold have arrived by now; after that, nothing.
    const std::size_t whilePaused = r.batches.size();
    QTest::qWait(300);
    QCOMPARE(r.batches.size(), whilePaused);
    QVERIFY(r.outcomes.empty());

    m_worker->resume();
    QTRY_COMPARE_WITH_TIMEOUT(int(r.paused.size()), 2, 5000);
    QCOMPARE(r.paused[1], false);
    QTRY_VERIFY_WITH_TIMEOUT(r.batches.size() > whilePaused, 5000);

    // A stop also releases a paused worker.
    m_worker->pause();
    QTRY_COMPARE_WITH_TIMEOUT(int(r.paused.size()), 3, 5000);
    m_worker->requestStop();
    QTRY_COMPARE_WITH_TIMEOUT(int(r.outcomes.size()), 1, 5000);
}

void TestTrainingWorker::cancelSkipsEvaluation()
{
    const Recorder &r = *m_recorder;
    m_worker->submit(attentionTrainingJob(quickDataset(), quickModelConfig(), quickTraining(10000)));
    QTRY_VERIFY_WITH_TIMEOUT(!r.batches.empty(), 60000);
    m_worker->requestCancel();
    QTRY_COMPARE_WITH_TIMEOUT(r.idle, 1, 5000);
    QVERIFY(r.outcomes.empty());
    QVERIFY(r.reports.empty());
}

void TestTrainingWorker::badDatasetIsReported_data()
{
    QTest::addColumn<bool>("exists");
    QTest::addColumn<QByteArray>("contents");
    QTest::addColumn<QString>("expected");
    QTest::newRow("missing file") << false << QByteArray() << QStringLiteral("cannot open");
    QTest::newRow("empty file") << true << QByteArray() << QStringLiteral("0 usable sentences");
    QTest::newRow("all lines too long") << true << QByteArray("a b c d e f\ng h i j k l\n")
                                        << QStringLiteral("longer than 4");
}

void TestTrainingWorker::badDatasetIsReported()
{
    QFETCH(bool, exists);
    QFETCH(QByteArray, contents);
    QFETCH(QString, expected);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("corpus.txt"));
    if (exists) {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(contents);
    }
    const Recorder &r = *m_recorder;
    DatasetConfig data = quickDataset();
    data.corpusPath = path.toStdString();
    m_worker->submit(attentionTrainingJob(data, quickModelConfig(), quickTraining(1)));
    QTRY_COMPARE_WITH_TIMEOUT(r.idle, 1, 10000);
    QVERIFY(r.started.empty());
    QCOMPARE(r.failures.size(), 1);
    QVERIFY2(r.failures[0].contains(expected), qPrintable(r.failures[0]));
}

void TestTrainingWorker::evaluatesAGivenModel()
{
    const Recorder &r = *m_recorder;
    m_worker->submit(attentionTrainingJob(quickDataset(), quickModelConfig(), quickTraining(1)));
    QTRY_COMPARE_WITH_TIMEOUT(r.idle, 1, 120000);
    const ModelSnapshot model = r.finalModels.at(0);
    QVERIFY(model);
    QCOMPARE(int(r.reports.size()), 1);

    m_worker->submit(attentionEvaluationJob(std::make_shared<const Seq2SeqModel>(model->clone())), false);
    QTRY_COMPARE_WITH_TIMEOUT(r.idle, 2, 60000);
    QCOMPARE(int(r.reports.size()), 2);
    QCOMPARE(r.reports[1].sentences, 30);
    // The same weights on the same test split score the same.
    QCOMPARE(r.reports[1].exactMatch, r.reports[0].exactMatch);
}

// The worker knows no lab: any job's results, failures and end arrive through the same signals.
void TestTrainingWorker::anyLabsJobReportsThroughTheSameSignals()
{
    const Recorder &r = *m_recorder;
    m_worker->submit([](JobContext &context) {
        context.started(2, QStringLiteral("words"), QStringLiteral("a lab of its own"));
        for (int batch = 1; batch <= 4; ++batch)
            context.batch({(batch + 1) / 2, (batch - 1) % 2 + 1, 2, 0.5, 100.0});
        context.report(QStringLiteral("a result of the lab's own type"));
    });
    m_worker->submit([](JobContext &) { throw std::runtime_error("the data ran out"); });
    QTRY_COMPARE_WITH_TIMEOUT(r.idle, 2, 10000);
    QCOMPARE(int(r.started.size()), 1);
    QCOMPARE(r.started[0].unit, QStringLiteral("words"));
    // Each epoch's last batch is always reported, whatever the merging.
    QVERIFY(r.batches.size() >= 2);
    QCOMPARE(r.batches.back().epoch, 2);
    QCOMPARE(r.batches.back().batch, 2);
    QCOMPARE(r.others.size(), 1);
    QCOMPARE(r.others[0].toString(), QStringLiteral("a result of the lab's own type"));
    QCOMPARE(r.failures, QStringList{QStringLiteral("the data ran out")});
}

// The window's work after an epoch runs before training goes on, not beside it.
void TestTrainingWorker::aReportThatWaitsForTheWindowResumesOnceItIsHandled()
{
    std::atomic<bool> handled{false};
    std::atomic<int> handledWhenTheJobWentOn{-1};
    connect(m_worker, &TrainingWorker::reported, this, [&](quint64, const QVariant &) {
        QThread::msleep(50);  // a redraw
        handled = true;
    });
    m_worker->submit([&](JobContext &context) {
        context.reportAndWaitForWindow(QStringLiteral("an epoch"));
        handledWhenTheJobWentOn = handled ? 1 : 0;
    });
    QTRY_VERIFY_WITH_TIMEOUT(handledWhenTheJobWentOn != -1, 10000);
    QCOMPARE(handledWhenTheJobWentOn.load(), 1);
    QTRY_COMPARE_WITH_TIMEOUT(m_recorder->idle, 1, 10000);
}

// A window that does not answer (a modal loop elsewhere, a long redraw) never stops training.
void TestTrainingWorker::aBusyWindowHoldsTheJobNoLongerThanTheLimit()
{
    std::atomic<bool> jobWentOn{false};
    m_worker->submit([&](JobContext &context) {
        context.reportAndWaitForWindow(QStringLiteral("an epoch"));
        jobWentOn = true;
    });
    // This thread is the window's: it handles no event for twenty times the limit.
    QThread::msleep(20 * JobContext::kMaxWaitForWindowMs);
    QVERIFY(jobWentOn);
    QTRY_COMPARE_WITH_TIMEOUT(m_recorder->others.size(), 1, 10000);
}

ATTNSCOPE_TEST(trainingworker, TestTrainingWorker)
#include "tst_trainingworker.moc"
