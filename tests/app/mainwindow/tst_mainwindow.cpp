#include "tests/common/messageboxanswerer.h"
#include "tests/common/tinymodel.h"
#include "ui/mainwindow.h"

#include "app/trainingcontroller.h"
#include "app/trainingworker.h"
#include "engine/attention/dataset.h"
#include "engine/attention/trainer.h"
#include "engine/core/vocabulary.h"
#include "ui/attention/beamview.h"
#include "ui/attention/datasetpanel.h"
#include "ui/attention/examplestable.h"
#include "ui/attention/experimentspanel.h"
#include "ui/attention/inferencepanel.h"
#include "ui/attention/lengthaccuracyplot.h"
#include "ui/attention/trainingpanel.h"
#include "ui/core/attentionheatmap.h"
#include "ui/core/lossplot.h"

#include <QAbstractButton>
#include <QAbstractSpinBox>
#include <QAction>
#include <QApplication>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTableWidget>
#include <QTreeWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QTimer>

#include <future>

#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace {

QString reversed(const QString &sentence)
{
    QStringList words = sentence.split(QLatin1Char(' '));
    std::reverse(words.begin(), words.end());
    return words.join(QLatin1Char(' '));
}

}

class TestMainWindow : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();

    void typingShowsTheReversal_data();
    void typingShowsTheReversal();
    void clickingAHeatmapCellHighlightsTokens();
    void unknownWordsAreMarked();
    void withoutAModelTheInferenceViewSaysSo();
    void invalidSettingsDisableTrain_data();
    void invalidSettingsDisableTrain();
    void settingsPersistAcrossWindows();
    void openingABadCheckpointKeepsTheModel();
    void absurdSettingsCannotBeEntered();
    void oddSentencesGiveOutputOrAMessage_data();
    void oddSentencesGiveOutputOrAMessage();
    void saveThenOpenRoundTrips();
    void trainingFeedsPlotsTableAndAnalysis();
    void stopEndsTraining();
    void closingDuringTrainingEndsTheThread();
    void trainingRunsBelowTheWindowsPriority();
    void experimentsTrainTheQueueInTurn();
    void beamSearchShowsTheNBestAndItsSteps();

private:
    void useTinySettings(MainWindow &window, int epochs);

    ModelSnapshot m_model;
    MainWindow *m_window = nullptr;
};

void TestMainWindow::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("AttnScopeTest"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_mainwindow"));
    QSettings().clear();

    // A model that has learnt the task, trained here on the test's own thread.
    const DatasetConfig data = quickDataset();
    const Dataset dataset = Dataset::build(data);
    Seq2SeqModel model(quickModelConfig(), Vocabulary::build(dataset.train), 7);
    model.datasetConfig = data;
    TrainingConfig training = quickTraining(30);
    training.learningRate = 0.005;
    Trainer trainer(model, dataset, training);
    const TrainingOutcome outcome = trainer.run();
    // The trainer leaves the weights of the epoch with the lowest validation loss in the model.
    QCOMPARE(int(outcome.status), int(TrainingOutcome::Status::Finished));
    const EpochStats &best = model.history.at(std::size_t(outcome.bestEpoch - 1));
    QVERIFY2(best.valExactMatch > 0.95, "the tiny model should learn to reverse six words");
    m_model = std::make_shared<const Seq2SeqModel>(std::move(model));
}

void TestMainWindow::init()
{
    QSettings().clear();
    m_window = new MainWindow;
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window));
}

void TestMainWindow::cleanup()
{
    delete m_window;
    m_window = nullptr;
}

void TestMainWindow::useTinySettings(MainWindow &window, int epochs)
{
    window.datasetPanel()->setConfig(quickDataset());
    window.trainingPanel()->setModelConfig(quickModelConfig());
    window.trainingPanel()->setTrainingConfig(quickTraining(epochs));
}

void TestMainWindow::typingShowsTheReversal_data()
{
    QTest::addColumn<QString>("sentence");
    QTest::newRow("two words") << QStringLiteral("red cat");
    QTest::newRow("three words") << QStringLiteral("blue dog fish");
    QTest::newRow("four words") << QStringLiteral("green fish red dog");
}

void TestMainWindow::typingShowsTheReversal()
{
    QFETCH(QString, sentence);
    InferencePanel *panel = m_window->inferencePanel();
    panel->setModel(m_model, QStringLiteral("tiny test model"));
    QLineEdit *input = panel->inputField();
    input->clear();
    input->setFocus();
    QTest::keyClicks(input, sentence);
    QTRY_COMPARE(panel->outputText(), reversed(sentence));
    QCOMPARE(panel->text(), sentence);

    auto *output = m_window->findChild<QLabel *>(QStringLiteral("outputTokens"));
    QVERIFY(output);
    for (const QString &word : sentence.split(QLatin1Char(' ')))
        QVERIFY2(output->text().contains(word), qPrintable(output->text()));
    AttentionHeatmap *heatmap = panel->heatmap();
    QCOMPARE(heatmap->rows(), sentence.count(QLatin1Char(' ')) + 2);  // words and <EOS>
    QCOMPARE(heatmap->columns(), sentence.count(QLatin1Char(' ')) + 2);
}

void TestMainWindow::clickingAHeatmapCellHighlightsTokens()
{
    InferencePanel *panel = m_window->inferencePanel();
    panel->setModel(m_model, QStringLiteral("tiny test model"));
    panel->setText(QStringLiteral("red cat dog"));
    QCOMPARE(panel->highlightedOutputToken(), -1);
    AttentionHeatmap *heatmap = panel->heatmap();
    heatmap->replot();

    const int row = 0;     // the first output word, "dog"
    const int column = 2;  // the input word "dog"
    const QPoint cell(int(heatmap->xAxis->coordToPixel(column)), int(heatmap->yAxis->coordToPixel(row)));
    QTest::mouseClick(heatmap, Qt::LeftButton, Qt::NoModifier, cell);

    QCOMPARE(heatmap->selectedRow(), row);
    QCOMPARE(heatmap->selectedColumn(), column);
    QCOMPARE(panel->highlightedOutputToken(), row);
    QCOMPARE(panel->highlightedSourceToken(), column);
    auto *source = m_window->findChild<QLabel *>(QStringLiteral("sourceTokens"));
    auto *output = m_window->findChild<QLabel *>(QStringLiteral("outputTokens"));
    auto *info = m_window->findChild<QLabel *>(QStringLiteral("cellInfo"));
    // The highlighted span holds exactly the clicked tokens, once each.
    QCOMPARE(source->text().count(QStringLiteral("background-color")), 1);
    QVERIFY2(source->text().contains(QStringLiteral("font-weight:bold;\">&nbsp;dog&nbsp;")), qPrintable(source->text()));
    QCOMPARE(output->text().count(QStringLiteral("background-color")), 1);
    QVERIFY2(output->text().contains(QStringLiteral("font-weight:bold;\">&nbsp;dog&nbsp;")), qPrintable(output->text()));
    const QString weight = QLocale().toString(panel->sentence().weight(row, column), 'f', 3);
    QVERIFY2(info->text().contains(weight), qPrintable(info->text()));

    // Another cell moves the highlight; a new sentence clears it.
    const QPoint other(int(heatmap->xAxis->coordToPixel(0)), int(heatmap->yAxis->coordToPixel(2)));
    QTest::mouseClick(heatmap, Qt::LeftButton, Qt::NoModifier, other);
    QCOMPARE(panel->highlightedOutputToken(), 2);
    QCOMPARE(panel->highlightedSourceToken(), 0);
    QVERIFY(source->text().contains(QStringLiteral("font-weight:bold;\">&nbsp;red&nbsp;")));
    panel->setText(QStringLiteral("fish fish"));
    QCOMPARE(panel->highlightedOutputToken(), -1);
    QCOMPARE(source->text().count(QStringLiteral("background-color")), 0);
}

void TestMainWindow::unknownWordsAreMarked()
{
    InferencePanel *panel = m_window->inferencePanel();
    panel->setModel(m_model, QStringLiteral("tiny test model"));
    auto *legend = m_window->findChild<QLabel *>(QStringLiteral("tokenLegend"));
    panel->setText(QStringLiteral("red cat"));
    QVERIFY(legend->isHidden());

    panel->setText(QStringLiteral("red zebra cat"));
    QVERIFY(panel->hasSentence());
    QCOMPARE(panel->sentence().sourceKnown.at(1), false);
    auto *source = m_window->findChild<QLabel *>(QStringLiteral("sourceTokens"));
    QVERIFY2(source->text().contains(QStringLiteral("underline;\">&nbsp;zebra&nbsp;")), qPrintable(source->text()));
    QVERIFY(!source->text().contains(QStringLiteral("&nbsp;red&nbsp;")));  // known words stay plain
    QVERIFY(!legend->isHidden());
}

void TestMainWindow::withoutAModelTheInferenceViewSaysSo()
{
    InferencePanel *panel = m_window->inferencePanel();
    panel->inputField()->clear();
    QTest::keyClicks(panel->inputField(), QStringLiteral("red cat"));
    QTest::qWait(100);
    QVERIFY(!panel->hasSentence());
    auto *output = m_window->findChild<QLabel *>(QStringLiteral("outputTokens"));
    QVERIFY2(output->text().contains(QStringLiteral("press Train (F5)")), qPrintable(output->text()));
    QVERIFY(!m_window->saveAction()->isEnabled());
    QVERIFY(!m_window->exportHeatmapAction()->isEnabled());
}

void TestMainWindow::invalidSettingsDisableTrain_data()
{
    QTest::addColumn<int>("minLength");
    QTest::addColumn<int>("maxLength");
    QTest::addColumn<QString>("words");
    QTest::addColumn<bool>("valid");
    QTest::newRow("defaults") << 3 << 10 << QStringLiteral("a b c") << true;
    QTest::newRow("max below min") << 5 << 4 << QStringLiteral("a b c") << false;
    QTest::newRow("no words") << 3 << 10 << QStringLiteral("") << false;
}

void TestMainWindow::invalidSettingsDisableTrain()
{
    QFETCH(int, minLength);
    QFETCH(int, maxLength);
    QFETCH(QString, words);
    QFETCH(bool, valid);
    DatasetConfig c;
    c.minLength = minLength;
    c.maxLength = maxLength;
    c.words.clear();
    for (const QString &word : words.split(QLatin1Char(' '), Qt::SkipEmptyParts))
        c.words.push_back(word.toStdString());
    m_window->datasetPanel()->setConfig(c);
    QCOMPARE(m_window->trainAction()->isEnabled(), valid);
    QCOMPARE(m_window->datasetPanel()->problem().isEmpty(), valid);
    QSignalSpy requested(m_window, &MainWindow::trainRequested);
    m_window->trainAction()->trigger();
    m_window->train();
    QCOMPARE(requested.count(), valid ? 1 : 0);
}

void TestMainWindow::settingsPersistAcrossWindows()
{
    DatasetConfig data = quickDataset();
    data.seed = 1234;
    m_window->datasetPanel()->setConfig(data);
    TrainingConfig training = quickTraining(17);
    m_window->trainingPanel()->setTrainingConfig(training);
    m_window->inferencePanel()->setText(QStringLiteral("blue cat"));
    QVERIFY(m_window->close());

    MainWindow second;
    const DatasetConfig restored = second.datasetPanel()->config();
    QCOMPARE(restored.words, data.words);
    QCOMPARE(restored.seed, data.seed);
    QCOMPARE(restored.trainSize, data.trainSize);
    QCOMPARE(second.trainingPanel()->trainingConfig().epochs, 17);
    QCOMPARE(second.trainingPanel()->trainingConfig().learningRate, training.learningRate);
    QCOMPARE(second.inferencePanel()->text(), QStringLiteral("blue cat"));
}

void TestMainWindow::openingABadCheckpointKeepsTheModel()
{
    QTemporaryDir dir;
    const QString good = dir.filePath(QStringLiteral("good.ckpt"));
    m_model->save(good.toStdString());
    QString error;
    QVERIFY2(m_window->loadModelFile(good, &error), qPrintable(error));

    const QString path = dir.filePath(QStringLiteral("garbage.ckpt"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("this is not a checkpoint");
    file.close();
    const ModelSnapshot before = m_window->bestModel();
    QVERIFY(before);
    QVERIFY(!m_window->loadModelFile(path, &error));
    QVERIFY(!error.isEmpty());
    QCOMPARE(m_window->bestModel(), before);
    error.clear();
    QVERIFY(!m_window->loadModelFile(dir.filePath(QStringLiteral("missing.ckpt")), &error));
    QVERIFY(!error.isEmpty());
    QCOMPARE(m_window->bestModel(), before);
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
        QVERIFY(!m_window->loadModelFile(path, &error));
        QVERIFY(!error.isEmpty());
        QCOMPARE(m_window->bestModel(), before);
    }
    m_window->inferencePanel()->setText(QStringLiteral("cat dog"));
    QCOMPARE(m_window->inferencePanel()->outputText(), QStringLiteral("dog cat"));

    // A failed save names the problem and leaves nothing behind.
    error.clear();
    const QString unwritable = dir.filePath(QStringLiteral("no/such/dir/model.ckpt"));
    QVERIFY(!m_window->saveModelFile(unwritable, &error));
    QVERIFY(!error.isEmpty());
    QVERIFY(!QFile::exists(unwritable));
}

void TestMainWindow::absurdSettingsCannotBeEntered()
{
    // Whatever is typed into any number field, Train is offered only for settings the engine accepts.
    QList<QAbstractSpinBox *> boxes = m_window->trainingPanel()->findChildren<QAbstractSpinBox *>();
    boxes += m_window->datasetPanel()->findChildren<QAbstractSpinBox *>();
    QVERIFY(boxes.size() >= 15);
    const QStringList typed = {"0", "-5", "-0.5", "99999999999", "1e9", "nan", "3.7"};
    for (QAbstractSpinBox *box : boxes) {
        if (!box->isEnabled())
            continue;
        for (const QString &text : typed) {
            box->setFocus();
            box->selectAll();
            QTest::keyClicks(box, text);
            QTest::keyClick(box, Qt::Key_Enter);
            const DatasetConfig data = m_window->datasetPanel()->config();
            const ModelConfig model = m_window->trainingPanel()->modelConfig();
            const TrainingConfig training = m_window->trainingPanel()->trainingConfig();
            const bool valid = validate(data).empty() && validate(model).empty() && validate(training).empty();
            QVERIFY2(valid || !m_window->trainAction()->isEnabled(),
                     qPrintable(QStringLiteral("'%1' in %2").arg(text, box->toolTip().left(40))));
        }
    }
    // The absurd values were refused outright: no size or count fell to zero or below.
    const ModelConfig model = m_window->trainingPanel()->modelConfig();
    QVERIFY(model.embedSize >= 1 && model.hiddenSize >= 2 && model.layers >= 1);
    const TrainingConfig training = m_window->trainingPanel()->trainingConfig();
    QVERIFY(training.learningRate > 0 && training.learningRate <= 10 && training.batchSize >= 1 && training.epochs >= 1);
}

void TestMainWindow::oddSentencesGiveOutputOrAMessage_data()
{
    QTest::addColumn<QString>("sentence");
    QTest::addColumn<QString>("shown");
    QTest::newRow("empty") << QString() << QStringLiteral("Type a sentence above");
    QTest::newRow("only spaces") << QStringLiteral("     ") << QStringLiteral("Type a sentence above");
    QTest::newRow("1000 words") << QStringLiteral("red cat ").repeated(500) << QStringLiteral("cut to the first 100 tokens");
    QTest::newRow("unicode") << QStringLiteral("café 猫 🐈") << QStringLiteral("café");
    QTest::newRow("punctuation only") << QStringLiteral("?!...") << QStringLiteral("?");
}

void TestMainWindow::oddSentencesGiveOutputOrAMessage()
{
    QFETCH(QString, sentence);
    QFETCH(QString, shown);
    InferencePanel *panel = m_window->inferencePanel();
    panel->setModel(m_model, QStringLiteral("tiny test model"));
    panel->setText(sentence);
    auto *source = m_window->findChild<QLabel *>(QStringLiteral("sourceTokens"));
    auto *output = m_window->findChild<QLabel *>(QStringLiteral("outputTokens"));
    QVERIFY2((source->text() + output->text()).contains(shown), qPrintable(source->text() + output->text()));
}

void TestMainWindow::saveThenOpenRoundTrips()
{
    TrainingController controller(m_window);
    QTemporaryDir dir;
    const QString first = dir.filePath(QStringLiteral("first.ckpt"));
    m_model->save(first.toStdString());
    QString error;
    QVERIFY2(m_window->loadModelFile(first, &error), qPrintable(error));
    QVERIFY(m_window->bestModel());
    QCOMPARE(m_window->windowTitle(), QStringLiteral("AttnScope — first.ckpt[*]"));
    m_window->inferencePanel()->setText(QStringLiteral("blue red"));
    QCOMPARE(m_window->inferencePanel()->outputText(), QStringLiteral("red blue"));
    // Opening a model scores it on its own test split, on the worker thread.
    QTRY_COMPARE_WITH_TIMEOUT(m_window->examplesTable()->visibleRows(), 30, 60000);
    QTRY_VERIFY(!m_window->analysisView()->toPlainText().isEmpty());

    const QString second = dir.filePath(QStringLiteral("second.ckpt"));
    QVERIFY2(m_window->saveModelFile(second, &error), qPrintable(error));
    QVERIFY(QFile::exists(second));
    QTRY_COMPARE(m_window->state(), MainWindow::State::Idle);
    QVERIFY2(m_window->loadModelFile(second, &error), qPrintable(error));
    QCOMPARE(m_window->inferencePanel()->outputText(), QStringLiteral("red blue"));
    QCOMPARE(QSettings().value(QStringLiteral("recentFiles")).toStringList().value(0), second);
}

void TestMainWindow::trainingFeedsPlotsTableAndAnalysis()
{
    TrainingController controller(m_window);
    useTinySettings(*m_window, 3);
    m_window->trainAction()->trigger();
    QVERIFY(m_window->isTraining());
    QVERIFY(!m_window->trainAction()->isEnabled());
    QVERIFY(m_window->stopAction()->isEnabled());
    QVERIFY(!m_window->datasetPanel()->isEnabled());

    QTRY_VERIFY_WITH_TIMEOUT(m_window->lossPlot()->batchPointCount() > 0, 60000);
    QTRY_COMPARE_WITH_TIMEOUT(m_window->state(), MainWindow::State::Idle, 120000);
    QCOMPARE(m_window->lossPlot()->epochPointCount(), 3);
    QVERIFY(m_window->lossPlot()->batchPointCount() >= 3);
    QVERIFY(m_window->bestModel());
    QCOMPARE(m_window->inferencePanel()->currentModel(), m_window->bestModel());
    QVERIFY(m_window->isWindowModified());
    QVERIFY(m_window->trainAction()->isEnabled());

    ExamplesTable *examples = m_window->examplesTable();
    QCOMPARE(examples->visibleRows(), 30);
    QVERIFY(!m_window->analysisView()->toPlainText().isEmpty());

    // Choosing a test sentence shows it in the inference view, with its heatmap.
    const QModelIndex index = examples->view()->model()->index(4, 0);
    const QString input = index.data().toString();
    examples->view()->setCurrentIndex(index);
    QCOMPARE(m_window->inferencePanel()->text(), input);
    QVERIFY(m_window->inferencePanel()->hasSentence());
    QCOMPARE(m_window->inferencePanel()->heatmap()->columns(), input.count(QLatin1Char(' ')) + 2);

    examples->setFailuresOnly(true);
    QVERIFY(examples->visibleRows() < 30);
}

void TestMainWindow::stopEndsTraining()
{
    TrainingController controller(m_window);
    useTinySettings(*m_window, 10000);
    m_window->train();
    QTRY_VERIFY_WITH_TIMEOUT(m_window->lossPlot()->batchPointCount() > 0, 60000);
    m_window->stopAction()->trigger();
    QCOMPARE(m_window->state(), MainWindow::State::Stopping);
    QVERIFY(!m_window->stopAction()->isEnabled());
    // The worker's trainingFinished moves the window on from Stopping.
    QTRY_VERIFY_WITH_TIMEOUT(m_window->state() != MainWindow::State::Stopping, 1000);
    QTRY_COMPARE_WITH_TIMEOUT(m_window->state(), MainWindow::State::Idle, 60000);
    QVERIFY(controller.isRunning());
}

// The training thread, and the shard threads it starts, yield the CPU to the GUI thread.
void TestMainWindow::trainingRunsBelowTheWindowsPriority()
{
#ifdef __linux__
    const auto niceness = [] { return getpriority(PRIO_PROCESS, id_t(syscall(SYS_gettid))); };
    TrainingController controller(m_window);
    int worker = 0, shard = 0;
    QMetaObject::invokeMethod(
        controller.worker(),
        [&] {
            worker = niceness();
            shard = std::async(std::launch::async, niceness).get();
        },
        Qt::BlockingQueuedConnection);
    QCOMPARE(worker, std::min(niceness() + 10, 19));
    QCOMPARE(shard, worker);
#else
    QSKIP("thread priorities are set on Linux only");
#endif
}

void TestMainWindow::closingDuringTrainingEndsTheThread()
{
    auto *controller = new TrainingController(m_window);
    useTinySettings(*m_window, 10000);
    m_window->train();
    // Wait for a best model: closing then asks whether to save it.
    QTRY_VERIFY_WITH_TIMEOUT(m_window->bestModel() != nullptr, 60000);
    QVERIFY(m_window->isTraining());

    MessageBoxAnswerer answerer(QMessageBox::Discard);
    QVERIFY(m_window->close());
    QVERIFY(answerer.answered());
    QVERIFY(!controller->isRunning());
    QVERIFY(m_window->bestModel());  // still there to be saved
    delete controller;
}

void TestMainWindow::experimentsTrainTheQueueInTurn()
{
    TrainingController controller(m_window);
    useTinySettings(*m_window, 2);
    ExperimentsPanel *panel = m_window->experimentsPanel();
    panel->findChild<QPushButton *>(QStringLiteral("addVariantsButton"))->click();
    QCOMPARE(panel->queuedCount(), 4);
    QSignalSpy epochs(controller.worker(), &TrainingWorker::experimentEpoch);
    auto *run = panel->findChild<QPushButton *>(QStringLiteral("runQueueButton"));
    QVERIFY(run->isEnabled());
    run->click();
    QCOMPARE(m_window->state(), MainWindow::State::Comparing);
    QVERIFY(!m_window->trainAction()->isEnabled());
    QVERIFY(!run->isEnabled());

    QTRY_COMPARE_WITH_TIMEOUT(m_window->state(), MainWindow::State::Idle, 240000);
    QCOMPARE(epochs.count(), 8);  // two epochs for each of the four variants, in queue order
    for (int i = 0; i < epochs.count(); ++i)
        QCOMPARE(epochs.at(i).at(0).toInt(), i / 2);
    QCOMPARE(panel->lengthPlot()->runCount(), 4);
    QCOMPARE(panel->curvesPlot()->graphCount(), 8);  // validation loss and exact match per run
    auto *list = panel->findChild<QListWidget *>();
    QVERIFY(list->item(3)->text().startsWith(QStringLiteral("none, hidden")));
    QVERIFY(list->item(3)->text().contains(QStringLiteral("test exact match")));
    QVERIFY(panel->findChild<QLabel *>(QStringLiteral("experimentsStatus"))->text().contains(QStringLiteral("4")));
    QVERIFY(run->isEnabled());
    QVERIFY(m_window->trainAction()->isEnabled());
}

void TestMainWindow::beamSearchShowsTheNBestAndItsSteps()
{
    InferencePanel *panel = m_window->inferencePanel();
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

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
