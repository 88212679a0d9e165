#include "tests/common/testregistry.h"
#include "tests/common/messageboxanswerer.h"
#include "tests/common/tinymodel.h"
#include "tests/common/workbenchfixture.h"
#include "ui/workbench/workbenchfiles.h"

#include "app/workbench/trainingcontroller.h"
#include "app/workbench/trainingworker.h"
#include "engine/attention/evaluation.h"
#include "engine/attention/trainer.h"
#include "engine/core/dataset.h"
#include "engine/core/vocabulary.h"
#include "ui/attention/attentionlab.h"
#include "ui/attention/beamsearchpage.h"
#include "ui/attention/datasetpanel.h"
#include "ui/attention/examplestable.h"
#include "ui/attention/experimentspanel.h"
#include "ui/core/faithfulnesspage.h"
#include "ui/attention/inferencepanel.h"
#include "ui/core/lengthaccuracyplot.h"
#include "ui/attention/losspanel.h"
#include "ui/attention/trainingpanel.h"
#include "ui/core/attentionheatmap.h"
#include "ui/core/lossplot.h"
#include "ui/workbench/document.h"
#include "ui/workbench/mainwindow.h"

#include <QFile>
#include <QLabel>
#include <QListWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QTreeWidget>

#include <future>

#ifdef __linux__
#include <sched.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

class TestMainWindow : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();

    void settingsPersistAcrossWindows();
    void openingABadCheckpointKeepsTheModel();
    void saveThenOpenRoundTrips();
    void faithfulnessIsMeasuredForThePageShown();
    void beamSearchPageComparesTheModelShown();
    void trainingFeedsPlotsTableAndAnalysis();
    void examplesSummaryNamesTheLengthsBelowTheBar();
    void stopEndsTraining();
    void closingDuringTrainingEndsTheThread();
    void trainingRunsAtTheWindowsPriority();
    void experimentsTrainTheQueueInTurn();

private:
    void useTinySettings(int epochs);
    // Waits until the worker has answered everything asked of it (at most a minute).
    bool quiet() { return QTest::qWaitFor([this] { return m_window->runState()->isQuiet(); }, 60000); }
    // Saves the quick model as `path` and opens it as File ▸ Open does.
    bool openSaved(const QString &path);

    ModelSnapshot m_model;
    MainWindow *m_window = nullptr;
    AttentionLab *m_lab = nullptr;
};

void TestMainWindow::initTestCase()
{
    useTestSettings(QStringLiteral("tst_mainwindow"));
    m_model = learntQuickModel();
    QVERIFY2(m_model, "the tiny model should learn to reverse six words");
}

void TestMainWindow::init()
{
    m_window = shownWorkbench();
    m_lab = m_window->lab<AttentionLab>();
    QVERIFY(QTest::qWaitForWindowExposed(m_window));
}

void TestMainWindow::cleanup()
{
    delete m_window;
    m_window = nullptr;
}

void TestMainWindow::useTinySettings(int epochs)
{
    m_lab->datasetPanel()->setConfig(quickDataset());
    m_lab->trainingPanel()->setModelConfig(quickModelConfig());
    m_lab->trainingPanel()->setTrainingConfig(quickTraining(epochs));
}

bool TestMainWindow::openSaved(const QString &path)
{
    m_model->save(path.toStdString());
    QString error;
    if (m_window->files()->openFile(path, &error))
        return true;
    qWarning("cannot open %s: %s", qPrintable(path), qPrintable(error));
    return false;
}

void TestMainWindow::settingsPersistAcrossWindows()
{
    DatasetConfig data = quickDataset();
    data.seed = 1234;
    m_lab->datasetPanel()->setConfig(data);
    TrainingConfig training = quickTraining(17);
    m_lab->trainingPanel()->setTrainingConfig(training);
    m_lab->inferencePanel()->setText(QStringLiteral("blue cat"));
    QVERIFY(m_window->close());

    MainWindow second;
    addRegisteredLabs(&second);
    auto *secondLab = second.lab<AttentionLab>();
    QCOMPARE(second.shownLab(), secondLab);  // the lab shown when the first window closed
    const DatasetConfig restored = secondLab->datasetPanel()->config();
    QCOMPARE(restored.words, data.words);
    QCOMPARE(restored.seed, data.seed);
    QCOMPARE(restored.trainSize, data.trainSize);
    QCOMPARE(secondLab->trainingPanel()->trainingConfig().epochs, 17);
    QCOMPARE(secondLab->trainingPanel()->trainingConfig().learningRate, training.learningRate);
    QCOMPARE(secondLab->inferencePanel()->text(), QStringLiteral("blue cat"));
}

void TestMainWindow::openingABadCheckpointKeepsTheModel()
{
    QTemporaryDir dir;
    const QString good = dir.filePath(QStringLiteral("good.ckpt"));
    m_model->save(good.toStdString());
    QString error;
    QVERIFY2(m_window->files()->openFile(good, &error), qPrintable(error));

    const QString path = dir.filePath(QStringLiteral("garbage.ckpt"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("this is not a checkpoint");
    file.close();
    const ModelSnapshot before = m_lab->bestModel();
    QVERIFY(before);
    QVERIFY(!m_window->files()->openFile(path, &error));
    QVERIFY(!error.isEmpty());
    QCOMPARE(m_lab->bestModel(), before);
    error.clear();
    QVERIFY(!m_window->files()->openFile(dir.filePath(QStringLiteral("missing.ckpt")), &error));
    QVERIFY(!error.isEmpty());
    QCOMPARE(m_lab->bestModel(), before);
    // Truncated, and from a future format version.
    QFile goodFile(good);
    QVERIFY(goodFile.open(QIODevice::ReadOnly));
    const QByteArray bytes = goodFile.readAll();
    QByteArray future = bytes;
    future[8] = 99;
    for (const QByteArray &damaged : {bytes.left(bytes.size() / 2), future}) {
        QFile bad(path);
        QVERIFY(bad.open(QIODevice::WriteOnly | QIODevice::Truncate));
        bad.write(damaged);
        bad.close();
        error.clear();
        QVERIFY(!m_window->files()->openFile(path, &error));
        QVERIFY(!error.isEmpty());
        QCOMPARE(m_lab->bestModel(), before);
    }
    m_lab->inferencePanel()->setText(QStringLiteral("cat dog"));
    QCOMPARE(m_lab->inferencePanel()->outputText(), QStringLiteral("dog cat"));

    // A failed save names the problem and leaves nothing behind.
    error.clear();
    const QString unwritable = dir.filePath(QStringLiteral("no/such/dir/model.ckpt"));
    QVERIFY(!m_window->document(m_lab)->saveFile(unwritable, &error));
    QVERIFY(!error.isEmpty());
    QVERIFY(!QFile::exists(unwritable));
}

void TestMainWindow::saveThenOpenRoundTrips()
{
    TrainingController controller(m_window);
    QTemporaryDir dir;
    const QString first = dir.filePath(QStringLiteral("first.ckpt"));
    m_model->save(first.toStdString());
    QString error;
    QVERIFY2(m_window->files()->openFile(first, &error), qPrintable(error));
    QVERIFY(m_lab->bestModel());
    QCOMPARE(m_window->windowTitle(), QStringLiteral("first.ckpt[*] — Attention — AttnScope"));
    m_lab->inferencePanel()->setText(QStringLiteral("blue red"));
    QCOMPARE(m_lab->inferencePanel()->outputText(), QStringLiteral("red blue"));
    // Opening a model scores it on its own test split, on the worker thread.
    QTRY_COMPARE_WITH_TIMEOUT(m_lab->examplesTable()->visibleRows(), 30, 60000);
    QTRY_VERIFY(!m_lab->analysisView()->toPlainText().isEmpty());

    const QString second = dir.filePath(QStringLiteral("second.ckpt"));
    QVERIFY2(m_window->document(m_lab)->saveFile(second, &error), qPrintable(error));
    QVERIFY(QFile::exists(second));
    QTRY_COMPARE(m_window->runState()->phase(), RunState::Phase::Idle);
    QVERIFY2(m_window->files()->openFile(second, &error), qPrintable(error));
    QCOMPARE(m_lab->inferencePanel()->outputText(), QStringLiteral("red blue"));
    QCOMPARE(QSettings().value(QStringLiteral("recentFiles")).toStringList().value(0), second);
}

// Faithfulness costs seconds of the worker's time: it is measured only for a Faithfulness page
// someone looks at. An opened or trained model waits for the page; a run measures each epoch once
// the page has been shown; training started at once abandons an opened model's measurement.
void TestMainWindow::faithfulnessIsMeasuredForThePageShown()
{
    TrainingController controller(m_window);
    QList<int> measuredEpochs;
    connect(controller.worker(), &TrainingWorker::reported, this, [&measuredEpochs](quint64, const QVariant &result) {
        if (result.metaType() == QMetaType::fromType<FaithfulnessMeasured>())
            measuredEpochs << result.value<FaithfulnessMeasured>().epoch;
    });
    FaithfulnessPage *page = m_lab->faithfulnessPage();
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("opened.ckpt"));
    QVERIFY(openSaved(path));
    QString error;
    QVERIFY(quiet());
    QVERIFY(measuredEpochs.isEmpty());
    m_window->showPage(page);
    QVERIFY(quiet());
    QCOMPARE(measuredEpochs, QList<int>{0});
    QVERIFY2(page->trend().isEmpty() && page->hasReport(), qPrintable(page->trend()));

    // Opened with the page shown, then trained at once: the run's epochs, not the opened model.
    measuredEpochs.clear();
    QVERIFY2(m_window->files()->openFile(path, &error), qPrintable(error));
    m_lab->trainWith(quickDataset(), quickModelConfig(), quickTraining(2));
    QVERIFY(quiet());
    QCOMPARE(measuredEpochs, (QList<int>{1, 2}));

    // A run on another page measures nothing until the page is shown, then the trained model.
    measuredEpochs.clear();
    m_window->showPage(m_window->findChild<QWidget *>(QStringLiteral("reversePage")));
    m_lab->trainWith(quickDataset(), quickModelConfig(), quickTraining(2));
    QVERIFY(quiet());
    QVERIFY(measuredEpochs.isEmpty());
    m_window->showPage(page);
    QVERIFY(quiet());
    QCOMPARE(measuredEpochs, QList<int>{0});
    QVERIFY(page->hasReport());
    QCOMPARE(page->subject(), QStringLiteral("the trained model"));
}

// The course's greedy-against-beam table, decoded by the worker for the model shown; a new model
// clears it.
void TestMainWindow::beamSearchPageComparesTheModelShown()
{
    TrainingController controller(m_window);
    BeamSearchPage *page = m_lab->beamSearchPage();
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("opened.ckpt"));
    QVERIFY(openSaved(path));
    QString error;
    QVERIFY(quiet());
    m_window->showPage(page);
    QVERIFY(page->compareButton()->isEnabled());
    QVERIFY(!page->hasEvaluation());
    QTest::mouseClick(page->compareButton(), Qt::LeftButton);
    QVERIFY(quiet());
    QVERIFY2(page->hasEvaluation(), qPrintable(page->status()));

    const std::vector<SentencePair> test = Dataset::build(m_model->datasetConfig).test;
    const BeamEvaluation &beams = page->evaluation();
    QCOMPARE(beams.sentences, int(test.size()));
    QCOMPARE(page->table()->rowCount(), int(courseBeamSettings().size()));
    QCOMPARE(page->differences()->topLevelItemCount(), int(beams.disagreements.size()));
    // Width 1 is greedy decoding: the same exact match as scoring the test split.
    const EvaluationReport greedy = evaluate(*m_model, test);
    QCOMPARE(beams.scores.front().setting.width, 1);
    QCOMPARE(beams.scores.front().exactMatch, greedy.exactMatch);

    const QString csv = dir.filePath(QStringLiteral("beams.csv"));
    QVERIFY2(page->exportCsv(csv, &error), qPrintable(error));
    QFile file(csv);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QStringList lines = QString::fromUtf8(file.readAll()).trimmed().split(QLatin1Char('\n'));
    QCOMPARE(lines.size(), int(courseBeamSettings().size()) + 1);
    QVERIFY(lines[0].startsWith(QStringLiteral("decoding,width,alpha,exact_match")));
    QVERIFY(lines[1].startsWith(QStringLiteral("\"greedy\",1,0,")));

    QVERIFY2(m_window->files()->openFile(path, &error), qPrintable(error));
    QVERIFY(quiet());
    QVERIFY(!page->hasEvaluation());
    QVERIFY(!page->exportCsv(csv, &error));
}

// A corpus run's summary sets each length's share of the corpus beside its exact match and names
// the lengths under the bar; a generated task's has neither.
void TestMainWindow::examplesSummaryNamesTheLengthsBelowTheBar()
{
    ExamplesTable table;
    EvaluationReport report;
    report.sentences = 4;
    report.byLength = {{3, {3, 3}}, {9, {0, 1}}};
    LengthReport lengths;
    lengths.bar = 0.9;
    lengths.rows = {{3, 13, 0.65, {3, 3}}, {9, 5, 0.25, {0, 1}}, {12, 2, 0.1, {}}};
    lengths.below = {9};
    lengths.belowShare = 0.25;
    const QLabel *summary = table.findChild<QLabel *>(QStringLiteral("examplesSummary"));
    table.setReport(report, lengths);
    QVERIFY2(summary->text().contains(QStringLiteral("9:&nbsp;0.0&nbsp;%&nbsp;(25.0&nbsp;% of the corpus)")),
             qPrintable(summary->text()));
    QVERIFY2(summary->text().contains(QStringLiteral("<b>Below 90&nbsp;%</b>: 9 words, 25.0&nbsp;% of the corpus.")),
             qPrintable(summary->text()));
    table.setReport(report);
    QVERIFY(!summary->text().contains(QStringLiteral("corpus")));
}

void TestMainWindow::trainingFeedsPlotsTableAndAnalysis()
{
    TrainingController controller(m_window);
    useTinySettings(3);
    m_window->trainAction()->trigger();
    QVERIFY(m_window->runState()->isTraining());
    QVERIFY(!m_window->trainAction()->isEnabled());
    QVERIFY(m_window->stopAction()->isEnabled());
    QVERIFY(!m_lab->datasetPanel()->isEnabled());

    QTRY_VERIFY_WITH_TIMEOUT(m_lab->lossPanel()->plot()->batchPointCount() > 0, 60000);
    QTRY_COMPARE_WITH_TIMEOUT(m_window->runState()->phase(), RunState::Phase::Idle, 120000);
    QCOMPARE(m_lab->lossPanel()->plot()->epochPointCount(), 3);
    QVERIFY(m_lab->lossPanel()->plot()->batchPointCount() >= 3);
    QVERIFY(m_lab->bestModel());
    QCOMPARE(m_lab->inferencePanel()->currentModel(), m_lab->bestModel());
    QVERIFY(m_window->isWindowModified());
    QVERIFY(m_window->trainAction()->isEnabled());

    ExamplesTable *examples = m_lab->examplesTable();
    QCOMPARE(examples->visibleRows(), 30);
    QVERIFY(!m_lab->analysisView()->toPlainText().isEmpty());

    // Choosing a test sentence shows it in the inference view, with its heatmap.
    const QModelIndex index = examples->view()->model()->index(4, 0);
    const QString input = index.data().toString();
    examples->view()->setCurrentIndex(index);
    QCOMPARE(m_lab->inferencePanel()->text(), input);
    QVERIFY(m_lab->inferencePanel()->hasSentence());
    QCOMPARE(m_lab->inferencePanel()->heatmap()->columns(), input.count(QLatin1Char(' ')) + 2);

    examples->setFailuresOnly(true);
    QVERIFY(examples->visibleRows() < 30);
}

void TestMainWindow::stopEndsTraining()
{
    TrainingController controller(m_window);
    useTinySettings(10000);
    m_window->train();
    QTRY_VERIFY_WITH_TIMEOUT(m_lab->lossPanel()->plot()->batchPointCount() > 0, 60000);
    m_window->stopAction()->trigger();
    QCOMPARE(m_window->runState()->phase(), RunState::Phase::Stopping);
    QVERIFY(!m_window->stopAction()->isEnabled());
    // The worker's trainingFinished moves the window on from Stopping.
    QTRY_VERIFY_WITH_TIMEOUT(m_window->runState()->phase() != RunState::Phase::Stopping, 1000);
    QTRY_COMPARE_WITH_TIMEOUT(m_window->runState()->phase(), RunState::Phase::Idle, 60000);
    QVERIFY(controller.isRunning());
}

// The training thread, and the shard threads it starts, run at the window's own priority: a lower
// one (the idle class, or nice levels) starved training whenever other programs kept the cores busy.
void TestMainWindow::trainingRunsAtTheWindowsPriority()
{
#ifdef __linux__
    struct Priority {
        int niceness = 0;
        int policy = -1;
    };
    const auto priority = [] {
        return Priority{getpriority(PRIO_PROCESS, id_t(syscall(SYS_gettid))), sched_getscheduler(0)};
    };
    TrainingController controller(m_window);
    Priority worker, shard;
    QMetaObject::invokeMethod(
        controller.worker(),
        [&] {
            worker = priority();
            shard = std::async(std::launch::async, priority).get();
        },
        Qt::BlockingQueuedConnection);
    const Priority window = priority();
    QCOMPARE(window.policy, SCHED_OTHER);
    QCOMPARE(worker.niceness, window.niceness);
    QCOMPARE(worker.policy, SCHED_OTHER);
    QCOMPARE(shard.niceness, window.niceness);
    QCOMPARE(shard.policy, SCHED_OTHER);
#else
    QSKIP("thread priorities are set on Linux only");
#endif
}

void TestMainWindow::closingDuringTrainingEndsTheThread()
{
    auto *controller = new TrainingController(m_window);
    useTinySettings(10000);
    m_window->train();
    // Wait for a best model: closing then asks whether to save it.
    QTRY_VERIFY_WITH_TIMEOUT(m_lab->bestModel() != nullptr, 60000);
    QVERIFY(m_window->runState()->isTraining());

    MessageBoxAnswerer answerer(QMessageBox::Discard);
    QVERIFY(m_window->close());
    QVERIFY(answerer.answered());
    QVERIFY(!controller->isRunning());
    QVERIFY(m_lab->bestModel());  // still there to be saved
    delete controller;
}

void TestMainWindow::experimentsTrainTheQueueInTurn()
{
    TrainingController controller(m_window);
    useTinySettings(2);
    ExperimentsPanel *panel = m_lab->experimentsPanel();
    panel->findChild<QPushButton *>(QStringLiteral("addVariantsButton"))->click();
    const int variants = int(attentionKinds().size());
    QCOMPARE(panel->queuedCount(), variants);
    QList<int> epochRuns;  // the run of each experiment epoch reported, in order
    connect(controller.worker(), &TrainingWorker::reported, this, [&epochRuns](quint64, const QVariant &result) {
        if (result.metaType() == QMetaType::fromType<ExperimentEpoch>())
            epochRuns << result.value<ExperimentEpoch>().index;
    });
    auto *run = panel->findChild<QPushButton *>(QStringLiteral("runQueueButton"));
    QVERIFY(run->isEnabled());
    run->click();
    QCOMPARE(m_window->runState()->phase(), RunState::Phase::Comparing);
    QVERIFY(!m_window->trainAction()->isEnabled());
    QVERIFY(!run->isEnabled());

    QTRY_COMPARE_WITH_TIMEOUT(m_window->runState()->phase(), RunState::Phase::Idle, 240000);
    QCOMPARE(epochRuns.size(), 2 * variants);  // two epochs for each variant, in queue order
    for (int i = 0; i < epochRuns.size(); ++i)
        QCOMPARE(epochRuns.at(i), i / 2);
    QCOMPARE(panel->lengthPlot()->runCount(), variants);
    QCOMPARE(panel->curvesPlot()->graphCount(), 6 * variants);  // validation loss and exact match per run: mean, min, max
    auto *list = panel->findChild<QListWidget *>();
    QVERIFY(list->item(3)->text().startsWith(QStringLiteral("none, hidden")));
    QVERIFY(list->item(3)->text().contains(QStringLiteral("test exact match")));
    QVERIFY(panel->findChild<QLabel *>(QStringLiteral("experimentsStatus"))->text().contains(QString::number(variants)));
    QVERIFY(run->isEnabled());
    QVERIFY(m_window->trainAction()->isEnabled());
}

ATTNSCOPE_TEST(mainwindow, TestMainWindow)
#include "tst_mainwindow.moc"
