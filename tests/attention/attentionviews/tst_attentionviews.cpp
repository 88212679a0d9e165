#include "tests/common/testregistry.h"
#include "engine/core/dataset.h"
#include "engine/core/tokenizer.h"
#include "ui/attention/alignmentplot.h"
#include "tests/common/workbenchfixture.h"
#include "ui/workbench/workbenchfiles.h"
#include "ui/attention/attentionexports.h"
#include "ui/attention/attentionlab.h"
#include "ui/core/beamview.h"
#include "ui/attention/compareview.h"
#include "ui/attention/datasetpanel.h"
#include "ui/attention/experimentspanel.h"
#include "ui/core/lengthaccuracyplot.h"
#include "ui/attention/inferencepanel.h"
#include "ui/attention/trainingpanel.h"
#include "ui/attention/wordremovalplot.h"
#include "ui/attention/wordremovalview.h"
#include "ui/core/attentionheatmap.h"
#include "ui/workbench/mainwindow.h"

#include <QAbstractSpinBox>
#include <QAction>
#include <QComboBox>
#include <QDockWidget>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

// The attention lab's views beside the heatmap, in their window without a worker: beam search,
// the known alignment, the alignment over training, word removal, the comparison of two models
// and the experiments' seeds.
class TestAttentionViews : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();

    void beamSearchShowsTheNBestAndItsSteps();
    void knownAlignmentOutlinesTheMirroredWords();
    void alignmentPlotFollowsTheEpochs();
    void wordRemovalFollowsTheTypedSentence();
    void compareFollowsTheTypedSentenceBothWays();
    void seedsRepeatEachConfigurationFromItsOwnSeed();

private:
    ModelSnapshot m_model;
    MainWindow *m_window = nullptr;
    AttentionLab *m_lab = nullptr;
};

void TestAttentionViews::initTestCase()
{
    useTestSettings(QStringLiteral("tst_attentionviews"));
    m_model = learntQuickModel();
    QVERIFY2(m_model, "the tiny model should learn to reverse six words");
}

void TestAttentionViews::init()
{
    m_window = shownWorkbench();
    m_lab = m_window->lab<AttentionLab>();
    QVERIFY(QTest::qWaitForWindowExposed(m_window));
}

void TestAttentionViews::cleanup()
{
    delete m_window;
    m_window = nullptr;
}

void TestAttentionViews::beamSearchShowsTheNBestAndItsSteps()
{
    InferencePanel *panel = m_lab->inferencePanel();
    panel->setModel(m_model, QStringLiteral("tiny test model"));
    BeamOptions beam;
    beam.width = 3;
    beam.alpha = 0.6;
    panel->setBeamOptions(beam);
    panel->setText(QStringLiteral("blue dog fish"));
    QCOMPARE(panel->outputText(), QStringLiteral("fish dog blue"));

    BeamView *view = panel->beamView();
    QVERIFY(!view->isHidden());
    QTableWidget *nbest = view->nbestTable();
    QVERIFY(nbest->rowCount() >= 1 && nbest->rowCount() <= 3);
    QCOMPARE(nbest->item(0, 1)->text(), panel->outputText());
    const QLocale locale;
    for (int row = 1; row < nbest->rowCount(); ++row)
        QVERIFY(locale.toDouble(nbest->item(row - 1, 3)->text()) >= locale.toDouble(nbest->item(row, 3)->text()));
    // The winner was kept at every step, one token longer each time, <EOS> included.
    QCOMPARE(view->stepsTree()->topLevelItemCount() >= panel->sentence().rows(), true);
    QCOMPARE(view->winnerPathLength(), panel->sentence().rows());

    beam.width = 1;
    panel->setBeamOptions(beam);
    QVERIFY(view->isHidden());
    QCOMPARE(panel->outputText(), QStringLiteral("fish dog blue"));
}

// Ctrl+L outlines, for each output word, the input word a reversal takes it from; the choice
// is kept in the settings.
void TestAttentionViews::knownAlignmentOutlinesTheMirroredWords()
{
    InferencePanel *panel = m_lab->inferencePanel();
    panel->setModel(m_model, QStringLiteral("tiny test model"));
    panel->setText(QStringLiteral("red cat dog fish"));
    QCOMPARE(panel->outputText(), QStringLiteral("fish dog cat red"));
    AttentionHeatmap *heatmap = panel->heatmap();
    QVERIFY(!heatmap->rightCellsShown());
    const auto outlinedCells = [heatmap] {
        QList<QPoint> cells;
        for (int i = 0; i < heatmap->itemCount(); ++i)
            if (auto *rect = qobject_cast<QCPItemRect *>(heatmap->item(i));
                rect && rect->visible() && rect->objectName() == AttentionHeatmap::rightCellObjectName()) {
                const QPointF centre = (rect->topLeft->coords() + rect->bottomRight->coords()) / 2;
                const QPoint cell(qRound(centre.x()), qRound(centre.y()));
                if (!cells.contains(cell))
                    cells << cell;
            }
        return cells;
    };
    QVERIFY(outlinedCells().isEmpty());

    panel->inputField()->setFocus();
    QTest::keyClick(panel->inputField(), Qt::Key_L, Qt::ControlModifier);
    QVERIFY(heatmap->rightCellsShown());
    QVERIFY(panel->rightCellsAction()->isChecked());
    // Output row t ("fish" first) comes from input column 3 - t; the <EOS> row has none.
    QCOMPARE(outlinedCells(), (QList<QPoint>{QPoint(3, 0), QPoint(2, 1), QPoint(1, 2), QPoint(0, 3)}));
    panel->setText(QStringLiteral("blue green"));
    QCOMPARE(outlinedCells(), (QList<QPoint>{QPoint(1, 0), QPoint(0, 1)}));

    QSettings settings;
    m_lab->saveSettings(settings);
    QTest::keyClick(panel->inputField(), Qt::Key_L, Qt::ControlModifier);
    QVERIFY(!heatmap->rightCellsShown());
    QVERIFY(outlinedCells().isEmpty());
    m_lab->restoreSettings(settings);
    QVERIFY(heatmap->rightCellsShown());
    QVERIFY(!outlinedCells().isEmpty());
}

// Each epoch's alignment (as the training job reports it) becomes a point of the alignment plot,
// beside that epoch's validation exact match; without attention the plot says there is nothing
// to align instead of drawing zeros.
void TestAttentionViews::alignmentPlotFollowsTheEpochs()
{
    AlignmentPlot *plot = m_lab->alignmentPlot();
    QCOMPARE(plot->epochCount(), 0);
    QVERIFY(!plot->message().isEmpty());
    QAction *exportAction = m_lab->exports()->alignmentAction();
    QVERIFY(!exportAction->isEnabled());

    const Dataset data = Dataset::build(quickDataset());
    const AlignmentScore score = measureAlignment(*m_model, data.val, Task::Reverse);
    QVERIFY(score.steps > 0);
    AlignmentScore worse = score;
    worse.alignedSteps /= 2;
    EpochStats first;
    first.epoch = 1;
    first.valExactMatch = 0.25;
    EpochStats second = first;
    second.epoch = 2;
    second.valExactMatch = 0.75;
    m_lab->receiveResult(QVariant::fromValue(epochTrained(first, true, m_model, worse)));
    m_lab->receiveResult(QVariant::fromValue(epochTrained(second, true, m_model, score)));
    QCOMPARE(plot->epochCount(), 2);
    QVERIFY(plot->message().isEmpty());
    QCOMPARE(plot->accuracyGraph()->data()->at(0)->key, 1.0);
    QCOMPARE(plot->accuracyGraph()->data()->at(0)->value, 100 * worse.accuracy());
    QCOMPARE(plot->accuracyGraph()->data()->at(1)->value, 100 * score.accuracy());
    QCOMPARE(plot->weightGraph()->data()->at(1)->value, score.meanRightWeight());
    QCOMPARE(plot->exactMatchGraph()->data()->at(0)->value, 25.0);
    QCOMPARE(plot->exactMatchGraph()->data()->at(1)->value, 75.0);
    QVERIFY(exportAction->isEnabled());
    QTemporaryDir dir;
    QString error;
    QVERIFY2(plot->exportImage(dir.filePath(QStringLiteral("alignment.png")), 900, 500, &error), qPrintable(error));
    QCOMPARE(QImage(dir.filePath(QStringLiteral("alignment.png"))).size(), QSize(900, 500));

    m_lab->receiveResult(QVariant::fromValue(epochTrained(first, true, m_model, std::nullopt)));
    QCOMPARE(plot->epochCount(), 0);
    QVERIFY2(plot->message().contains(QStringLiteral("no attention")), qPrintable(plot->message()));
    QVERIFY(!exportAction->isEnabled());
}

// The word removal view measures the sentence typed in the Reverse tab with the model chosen there:
// one pair of bars per input word, the figures the engine gives, the mode switch, and a message
// where there is nothing to compare.
void TestAttentionViews::wordRemovalFollowsTheTypedSentence()
{
    AttentionLab *lab = m_lab;
    InferencePanel *panel = lab->inferencePanel();
    WordRemovalView *view = lab->wordRemovalView();
    WordRemovalPlot *plot = view->plot();
    QAction *exportAction = lab->exports()->wordRemovalAction();
    lab->wordRemovalDock()->show();
    lab->wordRemovalDock()->raise();
    QTRY_VERIFY(view->isVisible());

    panel->setModel(m_model, QStringLiteral("tiny test model"));
    for (const QString &sentence : {QStringLiteral("red cat dog"), QStringLiteral("green fish red dog")}) {
        panel->setText(sentence);
        const int words = int(sentence.count(QLatin1Char(' '))) + 1;
        // Measured on the event loop's next turn, not inside the keystroke.
        QTRY_COMPARE(plot->wordCount(), words);
        QVERIFY(view->hasEffect());
        QCOMPARE(plot->fallBars()->dataCount(), words);
        QCOMPARE(QString::fromStdString(view->effect().original.text()), panel->outputText());
        const WordRemovalEffect expected = measureWordRemoval(*m_model, tokenize(sentence.toStdString()), RemovalMode::Drop);
        for (int i = 0; i < words; ++i) {
            QCOMPARE(plot->attentionBars()->data()->at(i)->value, expected.words[std::size_t(i)].attention);
            QCOMPARE(plot->fallBars()->data()->at(i)->value, expected.words[std::size_t(i)].logProbFall);
        }
        QVERIFY2(view->verdict().contains(QStringLiteral("ρ")), qPrintable(view->verdict()));
        QVERIFY(exportAction->isEnabled());
    }

    view->modeChoice()->setCurrentIndex(view->modeChoice()->findData(int(RemovalMode::Unknown)));
    QVERIFY(view->effect().mode == RemovalMode::Unknown);
    QCOMPARE(plot->wordCount(), 4);
    QTemporaryDir dir;
    QString error;
    QVERIFY2(plot->exportImage(dir.filePath(QStringLiteral("removal.svg")), 800, 500, &error), qPrintable(error));
    QVERIFY(QFileInfo(dir.filePath(QStringLiteral("removal.svg"))).size() > 0);

    // Hidden, the view waits; shown again, it measures what was typed meanwhile.
    lab->wordRemovalDock()->hide();
    QTRY_VERIFY(!view->isVisible());
    panel->setText(QStringLiteral("blue cat"));
    QTest::qWait(20);
    QCOMPARE(plot->wordCount(), 4);
    lab->wordRemovalDock()->show();
    lab->wordRemovalDock()->raise();
    QTRY_COMPARE(plot->wordCount(), 2);
    QVERIFY2(view->verdict().contains(QStringLiteral("undefined")), qPrintable(view->verdict()));

    panel->setText(QStringLiteral("cat"));
    QTRY_VERIFY(!view->hasEffect());
    QCOMPARE(plot->wordCount(), 0);
    QVERIFY2(plot->message().contains(QStringLiteral("two words")), qPrintable(plot->message()));
    QVERIFY(!exportAction->isEnabled());

    ModelConfig config = quickModelConfig();
    config.attention = AttentionKind::None;
    panel->setModel(std::make_shared<const Seq2SeqModel>(Seq2SeqModel(config, m_model->vocabulary(), 1)),
                    QStringLiteral("no attention"));
    panel->setText(QStringLiteral("red cat dog"));
    QTRY_VERIFY2(plot->message().contains(QStringLiteral("no attention")), qPrintable(plot->message()));
    QVERIFY(!view->hasEffect());
}

void TestAttentionViews::compareFollowsTheTypedSentenceBothWays()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("quick.ckpt"));
    m_model->save(QFile::encodeName(path).toStdString());
    QString error;
    QVERIFY2(m_window->files()->openFile(path, &error), qPrintable(error));
    QCOMPARE(m_lab->pages().at(2).widget, m_lab->compareView());

    InferencePanel *panel = m_lab->inferencePanel();
    CompareView *compare = m_lab->compareView();
    panel->setText(QStringLiteral("red cat dog"));
    QCOMPARE(compare->sentence(), QStringLiteral("red cat dog"));
    QVERIFY(!compare->isVisible());  // the Reverse page is shown: no comparison until the page is
    QVERIFY(!compare->hasComparison());
    m_window->showPage(compare);
    QVERIFY(compare->hasComparison());
    QCOMPARE(compare->comparison().a.text(), std::string("dog cat red"));
    QCOMPARE(compare->heatmap(CompareView::Side::B)->rows(), 4);  // the opened model on both sides

    QLineEdit *field = compare->sentenceField();
    field->clear();
    QTest::keyClicks(field, QStringLiteral("blue fish"));
    QCOMPARE(panel->text(), QStringLiteral("blue fish"));
    QTRY_COMPARE(compare->comparison().a.text(), std::string("fish blue"));
}

void TestAttentionViews::seedsRepeatEachConfigurationFromItsOwnSeed()
{
    AttentionLab *lab = m_lab;
    ExperimentsPanel *panel = lab->experimentsPanel();
    panel->setSeeds(3);
    panel->findChild<QPushButton *>(QStringLiteral("addVariantsButton"))->click();
    panel->findChild<QPushButton *>(QStringLiteral("runQueueButton"))->click();
    const QVector<ExperimentRun> runs = lab->queuedRuns();  // as the job that trains them got them

    const std::uint64_t seed = lab->trainingPanel()->trainingConfig().seed;
    QCOMPARE(runs.size(), 3 * int(attentionKinds().size()));  // every variant, three seeds each, in turn
    for (int i = 0; i < runs.size(); ++i) {
        QCOMPARE(runs[i].configuration, i / 3);
        QCOMPARE(runs[i].modelSeed, seed + std::uint64_t(i % 3));
        QVERIFY(runs[i].model.attention == runs[i / 3 * 3].model.attention);
    }
    QVERIFY(runs[0].model.attention != runs[3].model.attention);

    // The worker's reports, by hand: run i is configuration i / 3. The first configuration's
    // seeds reach validation losses 1, 2 and 6 in epoch 1; its third seed stops before epoch 2.
    const double losses[3][2] = {{1.0, 0.5}, {2.0, 1.5}, {6.0, -1}};
    for (int i = 0; i < runs.size(); ++i) {
        panel->runStarted(i, runs[i].modelSeed);
        for (int epoch = 1; epoch <= 2; ++epoch) {
            const double loss = i < 3 ? losses[i][epoch - 1] : 1.0;
            if (loss < 0)
                continue;
            EpochStats stats;
            stats.epoch = epoch;
            stats.valLoss = loss;
            stats.valExactMatch = 0.5;
            panel->addEpoch(i, stats);
        }
        EvaluationReport probe;
        probe.byLength[3] = {10 - i % 3, 10};  // 100, 90 and 80% at length 3
        panel->runFinished(i, 0.8 + 0.05 * (i % 3), probe);
    }
    QCustomPlot *curves = panel->curvesPlot();
    QCOMPARE(curves->graphCount(), 6 * int(attentionKinds().size()));  // loss and exact match per configuration: a mean and its band
    // addSpreadGraphs adds min, max, mean: the first configuration's loss is graphs 0-2.
    QCOMPARE(curves->graph(2)->data()->at(0)->value, 3.0);  // epoch 1: mean of 1, 2, 6
    QCOMPARE(curves->graph(0)->data()->at(0)->value, 1.0);
    QCOMPARE(curves->graph(1)->data()->at(0)->value, 6.0);
    QCOMPARE(curves->graph(2)->data()->at(1)->value, 1.0);  // epoch 2: the two seeds that got there
    QCOMPARE(panel->lengthPlot()->runCount(), int(attentionKinds().size()));
    const QString first = panel->findChild<QListWidget *>()->item(0)->text();
    QVERIFY2(first.contains(QStringLiteral("85.0% ± 5.0")), qPrintable(first));
    QVERIFY2(first.contains(QStringLiteral("3 seed")), qPrintable(first));

    // Both plots export, as drawings too.
    QTemporaryDir dir;
    QString error;
    const QString curvesFile = dir.filePath(QStringLiteral("curves.svg"));
    QVERIFY2(panel->exportCurves(curvesFile, 800, 500, &error), qPrintable(error));
    QFile svg(curvesFile);
    QVERIFY(svg.open(QIODevice::ReadOnly));
    QVERIFY(svg.readAll().contains("Validation per epoch"));
    QVERIFY2(panel->lengthPlot()->exportImage(dir.filePath(QStringLiteral("length.pdf")), 800, 500, &error),
             qPrintable(error));
    QVERIFY(!panel->exportCurves(dir.filePath(QStringLiteral("curves.gif")), 800, 500, &error));
    QVERIFY(error.contains(QStringLiteral(".gif")));
}

ATTNSCOPE_TEST(attentionviews, TestAttentionViews)
#include "tst_attentionviews.moc"
