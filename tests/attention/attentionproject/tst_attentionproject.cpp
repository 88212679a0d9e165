#include "tests/common/testregistry.h"
#include "engine/attention/alignmentscore.h"
#include "engine/attention/projectfile.h"
#include "engine/core/corpusdefaults.h"
#include "tests/common/workbenchfixture.h"
#include "ui/workbench/document.h"
#include "ui/workbench/workbenchfiles.h"
#include "engine/transformer/transformercheckpoint.h"
#include "tests/common/tinytransformer.h"
#include "ui/attention/alignmentplot.h"
#include "ui/attention/attentionlab.h"
#include "ui/attention/compareview.h"
#include "ui/attention/datasetpanel.h"
#include "ui/attention/experimentspanel.h"
#include "ui/attention/inferencepanel.h"
#include "ui/attention/trainingpanel.h"
#include "ui/core/attentionheatmap.h"
#include "ui/transformer/transformerlab.h"
#include "ui/workbench/mainwindow.h"
#include "ui/workbench/runcomparisonview.h"
#include "ui/workbench/runstate.h"
#include "ui/core/lengthaccuracyplot.h"

#include <QAction>
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QLocale>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QSettings>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

// File ▸ Save Project keeps the run and the window in one file; opening it in a fresh window
// brings them back as they were. Damaged files are refused and change nothing.
class TestAttentionProject : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();

    void savedProjectOpensAsItWas();
    void damagedProjectIsRefusedAndChangesNothing();
    void checkpointsStillSaveAndOpen();
    void aRunNotWholeIsNotSavedAsAProject();
    void sharesEachFinishedExperiment();
    void comparesOtherLabsRunsBesideItsOwn();
    void comparesTheTransformersModel();

private:
    // One Experiments run of the quick model, as the worker would report it, with this probe.
    void finishOneExperiment(const EvaluationReport &probe);
    // The quick task's run as the training job reports it, epoch by epoch, then the experiments.
    void reportRun();
    QString savedProject();

    struct Epoch {
        EpochStats stats;
        bool isBest;
        ModelSnapshot snapshot;
        AlignmentScore alignment;
    };
    std::vector<Epoch> m_epochs;
    TrainingConfig m_training;
    QTemporaryDir m_dir;
    MainWindow *m_window = nullptr;
};

void TestAttentionProject::initTestCase()
{
    useTestSettings(QStringLiteral("tst_attentionproject"));
    const DatasetConfig data = quickDataset();
    const Dataset dataset = Dataset::build(data);
    Seq2SeqModel model(quickModelConfig(), Vocabulary::build(dataset.train), 7);
    model.datasetConfig = data;
    m_training = quickTraining(4);
    m_training.seed = 7;
    Trainer::Callbacks callbacks;
    callbacks.onEpoch = [&](const EpochStats &stats, bool isBest) {
        m_epochs.push_back({stats, isBest, std::make_shared<const Seq2SeqModel>(model.clone()),
                            measureAlignment(model, dataset.val, data.task)});
    };
    Trainer(model, dataset, m_training).run(callbacks);
    QCOMPARE(int(m_epochs.size()), 4);
}

void TestAttentionProject::init()
{
    m_window = shownWorkbench();
    QVERIFY(QTest::qWaitForWindowExposed(m_window));
}

void TestAttentionProject::cleanup()
{
    delete m_window;
    m_window = nullptr;
}

void TestAttentionProject::reportRun()
{
    AttentionLab *lab = m_window->lab<AttentionLab>();
    lab->datasetPanel()->setConfig(quickDataset());
    lab->trainingPanel()->setModelConfig(quickModelConfig());
    lab->trainingPanel()->setTrainingConfig(m_training);
    lab->train();  // no worker here: the results below are what it would report
    for (const Epoch &e : m_epochs)
        lab->receiveResult(QVariant::fromValue(epochTrained(e.stats, e.isBest, e.snapshot, e.alignment)));
    const auto best = std::find_if(m_epochs.rbegin(), m_epochs.rend(), [](const Epoch &e) { return e.isBest; });
    TrainingOutcome outcome;
    outcome.bestEpoch = best->stats.epoch;
    auto finished = std::make_shared<Seq2SeqModel>(best->snapshot->clone());
    finished->history.clear();
    for (const Epoch &e : m_epochs)
        finished->history.push_back(e.stats);
    lab->receiveResult(QVariant::fromValue(TrainingFinished{outcome, finished}));
    while (!m_window->runState()->isQuiet())  // the fake worker answers everything asked of it
        m_window->runState()->workerIdle();

    ExperimentsPanel *experiments = lab->experimentsPanel();
    ModelConfig variant = quickModelConfig();
    variant.attention = AttentionKind::LuongDot;
    experiments->addConfiguration(variant);
    lab->receiveResult(QVariant::fromValue(ExperimentStarted{0, 11}));
    for (const Epoch &e : m_epochs)
        lab->receiveResult(QVariant::fromValue(ExperimentEpoch{0, e.stats}));
    EvaluationReport probe;
    probe.byLength = {{2, {9, 10}}, {6, {1, 10}}};
    lab->receiveResult(QVariant::fromValue(ExperimentFinished{0, 0.5, probe}));
}

QString TestAttentionProject::savedProject()
{
    reportRun();
    InferencePanel *panel = m_window->lab<AttentionLab>()->inferencePanel();
    panel->setText(QStringLiteral("red cat dog"));
    panel->heatmap()->selectCell(1, 2);
    const QString path = m_dir.filePath(QStringLiteral("run.attnscope"));
    QString error;
    if (!m_window->document(m_window->lab<AttentionLab>())->saveFile(path, &error))
        qWarning("%s", qPrintable(error));
    return path;
}

void TestAttentionProject::savedProjectOpensAsItWas()
{
    AttentionLab *lab = m_window->lab<AttentionLab>();
    const QString path = savedProject();
    QVERIFY(lab->saveProjectAction()->isEnabled());
    QVERIFY(m_window->menuBar()->actions().first()->menu()->actions().contains(lab->saveProjectAction()));
    QVERIFY(QFile::exists(path));

    const std::vector<int> epochs = lab->weightHistory().epochs();
    QCOMPARE(epochs, (std::vector<int>{1, 2, 3, 4}));
    const ModelSnapshot best = lab->bestModel();
    InferencePanel *panel = lab->inferencePanel();
    const QString output = panel->outputText();
    const std::vector<float> attention = panel->sentence().attention;
    const int alignmentEpochs = lab->alignmentPlot()->epochCount();
    QCOMPARE(alignmentEpochs, 4);

    // A fresh window, as after starting the program again.
    delete m_window;
    m_window = shownWorkbench();
    lab = m_window->lab<AttentionLab>();
    panel = lab->inferencePanel();
    QString error;
    QVERIFY2(m_window->files()->openFile(path, &error), qPrintable(error));

    QCOMPARE(int(lab->bestModel()->history.size()), 4);
    for (std::size_t i = 0; i < 4; ++i) {
        QCOMPARE(lab->bestModel()->history[i].trainLoss, m_epochs[i].stats.trainLoss);
        QCOMPARE(lab->bestModel()->history[i].valLoss, m_epochs[i].stats.valLoss);
    }
    QCOMPARE(lab->weightHistory().epochs(), epochs);
    QCOMPARE(lab->alignmentPlot()->epochCount(), alignmentEpochs);
    QCOMPARE(lab->alignmentPlot()->accuracyGraph()->data()->at(3)->value, 100 * m_epochs[3].alignment.accuracy());

    QCOMPARE(panel->text(), QStringLiteral("red cat dog"));
    QCOMPARE(panel->outputText(), output);
    QCOMPARE(panel->sentence().attention, attention);
    QCOMPARE(panel->highlightedOutputToken(), 1);
    QCOMPARE(panel->highlightedSourceToken(), 2);
    QCOMPARE(panel->heatmap()->selectedRow(), 1);
    QCOMPARE(panel->heatmap()->selectedColumn(), 2);

    QCOMPARE(lab->datasetPanel()->config().words, quickDataset().words);
    QCOMPARE(lab->trainingPanel()->modelConfig().bidirectional, false);
    QCOMPARE(lab->trainingPanel()->trainingConfig().seed, m_training.seed);
    QCOMPARE(lab->trainingPanel()->trainingConfig().epochs, 4);

    const std::vector<ExperimentRecord> &records = lab->experimentsPanel()->records();
    QCOMPARE(int(records.size()), 1);
    QCOMPARE(records[0].model.attention, AttentionKind::LuongDot);
    QCOMPARE(records[0].seed, std::uint64_t(11));
    QCOMPARE(int(records[0].history.size()), 4);
    QCOMPARE(records[0].testExactMatch, 0.5);
    QCOMPARE(records[0].probeByLength.at(6).correct, 1);
    // Loss and exact match, each a mean in its min-max band (graphs min, max, mean).
    QCOMPARE(lab->experimentsPanel()->curvesPlot()->graphCount(), 6);
    QCOMPARE(lab->experimentsPanel()->curvesPlot()->graph(2)->dataCount(), 4);

    QVERIFY(m_window->windowTitle().contains(QStringLiteral("run.attnscope")));
    QCOMPARE(QSettings().value(QStringLiteral("recentFiles")).toStringList().value(0), QFileInfo(path).absoluteFilePath());

    // Saved again, the file is the same: nothing was lost on the way through the window.
    const QString again = m_dir.filePath(QStringLiteral("again.attnscope"));
    QVERIFY2(m_window->document(m_window->lab<AttentionLab>())->saveFile(again, &error), qPrintable(error));
    QFile a(path), b(again);
    QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
    QCOMPARE(b.readAll(), a.readAll());
}

void TestAttentionProject::damagedProjectIsRefusedAndChangesNothing()
{
    const QString path = savedProject();
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QByteArray bytes = file.readAll();
    file.close();
    bytes[bytes.size() / 2] = char(bytes[bytes.size() / 2] ^ 0x01);
    const QString damaged = m_dir.filePath(QStringLiteral("damaged.attnscope"));
    QFile out(damaged);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(bytes);
    out.close();

    AttentionLab *lab = m_window->lab<AttentionLab>();
    const ModelSnapshot before = lab->bestModel();
    QString error;
    QVERIFY(!m_window->files()->openFile(damaged, &error));
    QVERIFY2(error.contains(QStringLiteral("checksum")), qPrintable(error));
    QCOMPARE(lab->bestModel(), before);
    QCOMPARE(lab->weightHistory().epochs(), (std::vector<int>{1, 2, 3, 4}));
    QCOMPARE(m_window->document(lab)->currentFile(), path);

    // A checkpoint renamed .attnscope opens as what its first bytes say it is: a model.
    const QString checkpoint = m_dir.filePath(QStringLiteral("model.ckpt"));
    QVERIFY2(m_window->document(lab)->saveFile(checkpoint, &error), qPrintable(error));
    const QString renamed = m_dir.filePath(QStringLiteral("model.attnscope"));
    QVERIFY(QFile::copy(checkpoint, renamed));
    QVERIFY2(m_window->files()->openFile(renamed, &error), qPrintable(error));
    QVERIFY(lab->weightHistory().empty());
    QCOMPARE(m_window->document(lab)->currentType().suffixes, QStringList{QStringLiteral("ckpt")});
}

void TestAttentionProject::checkpointsStillSaveAndOpen()
{
    savedProject();
    const QString checkpoint = m_dir.filePath(QStringLiteral("best.ckpt"));
    QString error;
    QVERIFY2(m_window->document(m_window->lab<AttentionLab>())->saveFile(checkpoint, &error), qPrintable(error));
    QVERIFY(!projectfile::isProjectFile(QFile::encodeName(checkpoint).toStdString()));
    QVERIFY2(m_window->files()->openFile(checkpoint, &error), qPrintable(error));
    // A checkpoint keeps neither the epochs' weights nor the experiments.
    QVERIFY(m_window->lab<AttentionLab>()->weightHistory().empty());
    QCOMPARE(int(m_window->lab<AttentionLab>()->bestModel()->history.size()), 4);

    // A checkpoint does not say how it was trained: no project is made of it.
    const QString project = m_dir.filePath(QStringLiteral("from-checkpoint.attnscope"));
    QVERIFY(!m_window->document(m_window->lab<AttentionLab>())->saveFile(project, &error));
    QVERIFY2(error.contains(QStringLiteral("opened from a checkpoint")), qPrintable(error));
    QVERIFY(!QFile::exists(project));
}

void TestAttentionProject::aRunNotWholeIsNotSavedAsAProject()
{
    savedProject();
    AttentionLab *lab = m_window->lab<AttentionLab>();
    lab->train();  // a new run starts; no worker answers here
    const QString path = m_dir.filePath(QStringLiteral("half.attnscope"));
    QString error;
    QVERIFY(!m_window->document(m_window->lab<AttentionLab>())->saveFile(path, &error));
    QVERIFY2(error.contains(QStringLiteral("still running")), qPrintable(error));
    QVERIFY(!QFile::exists(path));

    lab->receiveResult(QVariant::fromValue(TrainingFinished{TrainingOutcome{}, nullptr}));
    while (!m_window->runState()->isQuiet())
        m_window->runState()->workerIdle();
}

ATTNSCOPE_TEST(attentionproject, TestAttentionProject)
#include "tst_attentionproject.moc"

void TestAttentionProject::finishOneExperiment(const EvaluationReport &probe)
{
    AttentionLab *lab = m_window->lab<AttentionLab>();
    lab->datasetPanel()->setConfig(quickDataset());
    lab->trainingPanel()->setModelConfig(quickModelConfig());
    lab->trainingPanel()->setTrainingConfig(m_training);
    ExperimentsPanel *experiments = lab->experimentsPanel();
    experiments->addConfiguration(quickModelConfig());
    experiments->setSeeds(1);
    auto *run = experiments->findChild<QPushButton *>(QStringLiteral("runQueueButton"));
    QVERIFY(run);
    run->click();  // no worker here: the reports below stand in for it
    QCOMPARE(lab->queuedRuns().size(), 1);
    lab->receiveResult(QVariant::fromValue(ExperimentStarted{0, m_training.seed}));
    for (const Epoch &e : m_epochs)
        lab->receiveResult(QVariant::fromValue(ExperimentEpoch{0, e.stats}));
    lab->receiveResult(QVariant::fromValue(ExperimentFinished{0, 0.75, probe, m_epochs.back().snapshot}));
}

void TestAttentionProject::sharesEachFinishedExperiment()
{
    // Each finished Experiments run is offered to the other labs, measured in their common terms.
    EvaluationReport probe;
    probe.byLength = {{2, {9, 10}}, {12, {1, 10}}};
    finishOneExperiment(probe);
    if (QTest::currentTestFailed())
        return;

    const std::vector<SharedRun> &runs = m_window->lab<TransformerLab>()->comparison()->runs();
    QCOMPARE(int(runs.size()), 1);
    const SharedRun &shared = runs.front();
    QCOMPARE(shared.architecture, QStringLiteral("RNN"));
    QCOMPARE(shared.label, ExperimentsPanel::labelOf(quickModelConfig()));
    QCOMPARE(shared.seed, m_training.seed);
    QCOMPARE(shared.testExactMatch, 0.75);
    QCOMPARE(shared.byLength.at(12).correct, 1);
    QCOMPARE(shared.parameters, m_epochs.back().snapshot->parameterCount());
    QCOMPARE(shared.data, QString::fromStdString(describeData(quickDataset())));
    QCOMPARE(shared.trainedMaxLength, generatedMaxLength(quickDataset()));
    double seconds = 0, to99 = -1;
    for (const Epoch &e : m_epochs) {
        seconds += e.stats.seconds;
        if (to99 < 0 && e.stats.valExactMatch >= 0.99)
            to99 = seconds;
    }
    QCOMPARE(shared.secondsTo99, to99);
    while (!m_window->runState()->isQuiet())
        m_window->runState()->workerIdle();
}

void TestAttentionProject::comparesOtherLabsRunsBesideItsOwn()
{
    AttentionLab *lab = m_window->lab<AttentionLab>();
    RunComparisonView *comparison = lab->experimentsPanel()->comparison();
    QAction *csv = nullptr;
    for (QAction *action : lab->exportActions())
        if (action->objectName() == QStringLiteral("exportRunsCsv"))
            csv = action;
    QVERIFY(csv);
    QVERIFY(!csv->isEnabled());
    EvaluationReport probe;
    probe.byLength = {{2, {9, 10}}, {12, {1, 10}}};
    finishOneExperiment(probe);
    if (QTest::currentTestFailed())
        return;
    // The lab's own run, as it shares it.
    QCOMPARE(int(comparison->runs().size()), 1);
    QCOMPARE(comparison->runs().front().architecture, QStringLiteral("RNN"));
    QVERIFY(csv->isEnabled());

    // The Transformer lab's run on the same data joins it, in the table and the length plot.
    const QString data = QString::fromStdString(describeData(quickDataset()));
    SharedRun transformer;
    transformer.architecture = QStringLiteral("Transformer");
    transformer.label = QStringLiteral("2 + 2 layers, 4 heads, width 64, learned positions");
    transformer.data = data;
    transformer.seed = m_training.seed;
    transformer.testExactMatch = 0.98;
    transformer.byLength = {{2, {10, 10}}, {12, {0, 10}}};
    transformer.secondsTo99 = 12.5;
    transformer.parameters = 98765;
    transformer.samplesPerSecond = 4321;
    m_window->shareRun(m_window->lab<TransformerLab>(), transformer);
    QCOMPARE(int(comparison->runs().size()), 2);
    QCOMPARE(comparison->shownData(), data);
    QTableWidget *table = comparison->table();
    QCOMPARE(table->rowCount(), 2);
    QCOMPARE(table->item(0, 0)->text(), QStringLiteral("RNN"));
    QCOMPARE(table->item(1, 0)->text(), QStringLiteral("Transformer"));
    QCOMPARE(table->item(1, 1)->text(), transformer.label);
    QCOMPARE(table->item(1, 4)->text(), QLocale().toString(12.5, 'f', 1) + QStringLiteral(" s"));
    QCOMPARE(table->item(1, 5)->text(), QLocale().toString(98765));
    QCOMPARE(comparison->lengthPlot()->runCount(), 2);
    QVERIFY2(lab->experimentsPanel()->views()->tabText(1).contains(QStringLiteral("(2)")),
             qPrintable(lab->experimentsPanel()->views()->tabText(1)));

    // A run on other data is kept apart: shown alone, the others a pick away.
    SharedRun other = transformer;
    other.data = QStringLiteral("copy, the 10 digit words, 3-10 long, 100/10/10 sentences, seed 1");
    m_window->shareRun(m_window->lab<TransformerLab>(), other);
    QCOMPARE(int(comparison->runs().size()), 3);
    QCOMPARE(comparison->shownData(), other.data);
    QCOMPARE(table->rowCount(), 1);
    QCOMPARE(comparison->lengthPlot()->runCount(), 1);
    const QString hint = comparison->findChild<QLabel *>(QStringLiteral("runComparisonHint"))->text();
    QVERIFY2(hint.contains(QStringLiteral("2 run(s) on other data")), qPrintable(hint));
    QCOMPARE(comparison->dataPicker()->count(), 2);
    QVERIFY(comparison->dataPicker()->isEnabled());
    QVERIFY(comparison->showData(data));
    QCOMPARE(table->rowCount(), 2);
    QCOMPARE(int(comparison->shownRuns().size()), 2);
    QCOMPARE(comparison->lengthPlot()->runCount(), 2);
    QVERIFY(!comparison->showData(QStringLiteral("no such data")));
    QCOMPARE(comparison->shownData(), data);

    // Exported, every run with its data: a line per run and length.
    const QString path = m_dir.filePath(QStringLiteral("runs.csv"));
    QString error;
    QVERIFY2(comparison->exportCsv(path, &error), qPrintable(error));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = file.readAll().trimmed().split('\n');
    QCOMPARE(lines.size(), 1 + 3 * 2);
    QVERIFY(lines[3].startsWith("2,Transformer,"));
    QVERIFY2(lines[5].contains("\"copy, the 10 digit words"), lines[5].constData());

    // Narrow, the long Run label gives way so the figures stay in sight; wide, it shows whole.
    RunComparisonView alone;
    alone.addRun(transformer);
    alone.resize(420, 480);
    alone.show();
    QVERIFY(QTest::qWaitForWindowExposed(&alone));
    QTableWidget *figures = alone.table();
    QTRY_VERIFY(figures->columnViewportPosition(3) + figures->columnWidth(3) <= figures->viewport()->width());
    QVERIFY(figures->columnWidth(1) < figures->fontMetrics().horizontalAdvance(transformer.label));
    alone.resize(1200, 480);
    QTRY_VERIFY(figures->columnWidth(1) > figures->fontMetrics().horizontalAdvance(transformer.label));
    while (!m_window->runState()->isQuiet())
        m_window->runState()->workerIdle();
}

void TestAttentionProject::comparesTheTransformersModel()
{
    // A model the Transformer lab opens is offered on the attention lab's Compare page.
    reportRun();
    AttentionLab *lab = m_window->lab<AttentionLab>();
    const TransformerModel transformer(tinyTransformer(2, 2, 16, 24), lab->bestModel()->vocabulary(), Task::Reverse,
                                       3);
    const QString path = m_dir.filePath(QStringLiteral("tiny-transformer.ckpt"));
    saveTransformerCheckpoint(QFile::encodeName(path).toStdString(), transformer, quickDataset(),
                              TransformerTrainingConfig{});
    QString error;
    QVERIFY2(m_window->files()->openFile(path, &error), qPrintable(error));

    CompareView *compare = lab->compareView();
    QComboBox *picker = compare->picker(CompareView::Side::B);
    const int offered = picker->findData(QStringLiteral("decoder:0"));
    QVERIFY(offered >= 0);
    QVERIFY2(picker->itemText(offered).startsWith(QStringLiteral("Transformer: 2 + 2 layers, 2 heads, width 16")),
             qPrintable(picker->itemText(offered)));
    QVERIFY2(picker->itemText(offered).contains(QStringLiteral("tiny-transformer.ckpt")), qPrintable(picker->itemText(offered)));
    m_window->showLab(lab);
    compare->show();
    compare->setSentence(QStringLiteral("red cat dog"));
    QVERIFY(compare->pick(CompareView::Side::A, QStringLiteral("best")));
    QVERIFY(compare->pick(CompareView::Side::B, QStringLiteral("decoder:0")));
    QVERIFY(compare->hasComparison());
    const AttentionComparison &c = compare->comparison();
    QCOMPARE(c.b.outputTokens, transformer.decode({"red", "cat", "dog"}).outputTokens);
    QCOMPARE(compare->heatmap(CompareView::Side::B)->rows(), c.b.rows());
    QCOMPARE(compare->differenceMap()->rows(), c.a.rows());
    QCOMPARE(compare->differenceMap()->columns(), 4);
    while (!m_window->runState()->isQuiet())
        m_window->runState()->workerIdle();
}
