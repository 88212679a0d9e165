#include "tests/common/testregistry.h"
#include "tests/common/setupfield.h"
#include "tests/transformer/transformerlab/beamsearchchecks.h"
#include "tests/common/workbenchfixture.h"
#include "app/workbench/trainingcontroller.h"
#include "ui/core/attentionheatmap.h"
#include "ui/core/lengthaccuracyplot.h"
#include "ui/core/explanationtext.h"
#include "ui/core/heatmapexplainer.h"
#include "ui/core/lossplot.h"
#include "ui/selfattention/selfattentioncontrols.h"
#include "ui/selfattention/selfattentionlab.h"
#include "ui/selfattention/selfattentionpanel.h"
#include "engine/transformer/attentionrollout.h"
#include "ui/transformer/headgrid.h"
#include "ui/transformer/transformerlab.h"
#include "ui/transformer/transformerresults.h"
#include "ui/transformer/transformerreversepanel.h"
#include "ui/transformer/transformersetup.h"
#include "ui/workbench/document.h"
#include "ui/workbench/runcomparisonview.h"
#include "ui/workbench/workbenchfiles.h"

#include <QtTest>

#include <QAction>
#include <QComboBox>
#include <QDialog>
#include <QTextBrowser>
#include <QImage>
#include <QLineEdit>
#include <QLabel>
#include <QSlider>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>

// The lab in its window: it fits the screen, trains from its setup, decodes what is typed with
// every head of the three attentions, explains a head's weight and opens a head in the
// self-attention explorer, exports the head shown, and keeps its settings.
class TestTransformerLab : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void init();
    void cleanup();
    void fitsTheScreen();
    void trainsAndShowsEveryHead();
    void comparesRunsOfEveryLab();
    void explainsAHeadsWeight();
    void opensAHeadInTheExplorer();
    void beamSearchListsItsHypotheses();
    void refusesBadSettingsClearly();
    void settingsPersist();

private:
    // Untrained weights of a small model, as an epoch's snapshot: no training needed.
    void showUntrainedSnapshot();

    QTemporaryDir m_dir;
    MainWindow *m_window = nullptr;
    TrainingController *m_controller = nullptr;
    TransformerLab *m_lab = nullptr;
};

void TestTransformerLab::initTestCase()
{
    useTestSettings(QStringLiteral("tst_transformerlab"));
    QVERIFY(m_dir.isValid());
}

void TestTransformerLab::init()
{
    m_window = shownWorkbench(QStringLiteral("transformer"));
    m_controller = new TrainingController(m_window);
    m_lab = m_window->lab<TransformerLab>();
    QVERIFY(m_lab);
    QCOMPARE(m_window->shownLab(), m_lab);
}

void TestTransformerLab::cleanup()
{
    delete m_controller;
    delete m_window;
}

void TestTransformerLab::fitsTheScreen()
{
    const QSize needed = m_window->minimumSizeHint();
    QVERIFY2(needed.width() <= 1280 && needed.height() <= 720,
             qPrintable(QStringLiteral("%1 x %2").arg(needed.width()).arg(needed.height())));
}

void TestTransformerLab::trainsAndShowsEveryHead()
{
    // A small model on short sentences: a few seconds.
    setNumberField(m_lab->setup(), "train", 1500);
    setNumberField(m_lab->setup(), "val", 100);
    setNumberField(m_lab->setup(), "test", 100);
    setNumberField(m_lab->setup(), "max-len", 5);
    setNumberField(m_lab->setup(), "layers", 2);
    setNumberField(m_lab->setup(), "heads", 2);
    setNumberField(m_lab->setup(), "d-model", 32);
    setNumberField(m_lab->setup(), "feed-forward", 64);
    setNumberField(m_lab->setup(), "epochs", 3);
    setNumberField(m_lab->setup(), "warmup", 10);
    setNumberField(m_lab->setup(), "lr", 0.003);
    setNumberField(m_lab->setup(), "threads", 1);
    QVERIFY2(m_lab->trainProblem().isEmpty(), qPrintable(m_lab->trainProblem()));
    TransformerReversePanel *panel = m_lab->reversePanel();
    QVERIFY(!panel->findChild<QLineEdit *>(QStringLiteral("transformerSentence"))->isEnabled());

    m_window->train();
    QVERIFY(m_window->runState()->isTraining());
    QTRY_VERIFY_WITH_TIMEOUT(m_window->runState()->isQuiet(), 60000);
    QCOMPARE(int(m_lab->history().size()), 3);
    QCOMPARE(m_lab->lossPlot()->epochPointCount(), 3);
    QVERIFY(m_lab->lossPlot()->batchPointCount() > 0);
    QVERIFY2(m_lab->statusText().contains(QStringLiteral("test sentences")), qPrintable(m_lab->statusText()));
    // The run is listed for comparison, probed up to 3x the trained 5 words.
    RunComparisonView *comparison = m_lab->comparison();
    QCOMPARE(int(comparison->runs().size()), 1);
    const SharedRun &run = comparison->runs().front();
    QCOMPARE(run.architecture, QStringLiteral("Transformer"));
    QVERIFY2(run.label.startsWith(QStringLiteral("2 + 2 layers, 2 heads, width 32")), qPrintable(run.label));
    QCOMPARE(run.trainedMaxLength, 5);
    QCOMPARE(run.byLength.rbegin()->first, 15);
    QCOMPARE(run.seed, std::uint64_t(42));
    QVERIFY(run.byLength.begin()->second.total > 0);
    QVERIFY(run.samplesPerSecond > 0);
    QCOMPARE(comparison->table()->rowCount(), 1);
    // Every epoch's weights can be looked at again; the run ends on its best epoch's.
    QSlider *epochs = m_lab->epochSlider();
    QCOMPARE(epochs->maximum(), 3);
    QVERIFY(epochs->isEnabled());
    auto *info = panel->findChild<QLabel *>(QStringLiteral("transformerModelInfo"));
    QVERIFY2(info->text().startsWith(QStringLiteral("Epoch %1 ").arg(epochs->value())), qPrintable(info->text()));
    epochs->setValue(1);
    QVERIFY2(info->text().startsWith(QStringLiteral("Epoch 1 ")), qPrintable(info->text()));
    epochs->setValue(3);

    // What is typed is decoded by the best epoch, with every layer's and head's attention.
    panel->setText(QStringLiteral("the cat sat on"));
    QVERIFY(panel->hasOutput());
    const TransformerOutput &output = panel->output();
    QCOMPARE(int(output.sourceTokens.size()), 5);
    QVERIFY(output.outputTokens.size() >= 2);
    HeadGrid *grid = panel->headGrid();
    QCOMPARE(grid->layers(), 2);
    QCOMPARE(grid->heads(), 2);
    // Under each head, what it does: its share on the known answer in this sentence and, for the
    // epoch the run kept, its mean over the test split.
    QVERIFY2(grid->caption(1, 0).startsWith(QStringLiteral("answer ")), qPrintable(grid->caption(1, 0)));
    QVERIFY2(grid->caption(1, 0).contains(QStringLiteral("\ntest ")), qPrintable(grid->caption(1, 0)));
    const std::vector<std::vector<HeadScore>> &testCross = panel->snapshot()->testHeads->cross;
    QCOMPARE(int(testCross.size()), 2);
    QVERIFY(testCross[1][0].answer >= 0 && testCross[1][0].answer <= 1);
    QVERIFY2(grid->caption(1, 0).endsWith(QStringLiteral("test %1%").arg(QLocale().toString(100.0 * testCross[1][0].answer, 'f', 0))),
             qPrintable(grid->caption(1, 0)));
    AttentionHeatmap *heatmap = panel->heatmap();
    QCOMPARE(heatmap->columns(), 5);
    QCOMPARE(heatmap->rows(), int(output.outputTokens.size()));

    // A click on a head draws it full size: layer 2, head 2 of the cross-attention.
    QTest::mouseClick(grid, Qt::LeftButton, {}, grid->squareRect(1, 1).center());
    QCOMPARE(grid->selectedLayer(), 1);
    QCOMPARE(grid->selectedHead(), 1);
    const std::vector<float> &shown = output.cross.weights[1][1];
    QCOMPARE(heatmap->weight(0, 3), shown[3]);
    QCOMPARE(heatmap->weight(1, 0), shown[std::size_t(output.cross.columns)]);
    // The arrow keys move between heads.
    grid->setFocus();
    QTest::keyClick(grid, Qt::Key_Up);
    QCOMPARE(grid->selectedLayer(), 0);
    QCOMPARE(heatmap->weight(0, 3), output.cross.weights[0][1][3]);

    // The encoder's self-attention: the input over itself; the decoder's: each step over <SOS> and
    // the outputs before it, none after.
    panel->setKind(TransformerReversePanel::Kind::EncoderSelf);
    QVERIFY2(grid->caption(0, 1).startsWith(QStringLiteral("same ")), qPrintable(grid->caption(0, 1)));
    QCOMPARE(heatmap->rows(), 5);
    QCOMPARE(heatmap->columns(), 5);
    panel->setKind(TransformerReversePanel::Kind::DecoderSelf);
    QCOMPARE(heatmap->rows(), int(output.outputTokens.size()));
    QCOMPARE(heatmap->columns(), int(output.outputTokens.size()));
    QCOMPARE(heatmap->weight(0, 1), 0.0f);
    QVERIFY(std::abs(heatmap->weight(0, 0) - 1.0f) < 1e-6f);

    // Rolled out across layers: one matrix for the whole network, each row a distribution over the
    // input, as the engine computes it; Explain This Weight then says how it was made.
    panel->setKind(TransformerReversePanel::Kind::Cross);
    panel->setRolledOut(true);
    const RolloutMatrix rolled = crossAttentionRollout(output.encoderSelf, output.decoderSelf, output.cross);
    QCOMPARE(heatmap->rows(), rolled.rows);
    QCOMPARE(heatmap->columns(), 5);
    for (int r = 0; r < heatmap->rows(); ++r) {
        float sum = 0;
        for (int c = 0; c < heatmap->columns(); ++c) {
            QCOMPARE(heatmap->weight(r, c), rolled.at(r, c));
            sum += heatmap->weight(r, c);
        }
        QVERIFY(std::abs(sum - 1.0f) < 1e-5f);
    }
    QVERIFY(!panel->findChild<QAction *>(QStringLiteral("openHeadInExplorer"))->isEnabled());
    panel->setRolledOut(false);
    panel->setKind(TransformerReversePanel::Kind::DecoderSelf);
    QCOMPARE(heatmap->weight(0, 1), 0.0f);

    // The head shown exports as an image and as CSV.
    const QString png = m_dir.filePath(QStringLiteral("head.png"));
    QString error;
    QVERIFY2(heatmap->exportImage(png, 640, 480, &error), qPrintable(error));
    QCOMPARE(QImage(png).size(), QSize(640, 480));
    const QString csv = m_dir.filePath(QStringLiteral("head.csv"));
    QVERIFY2(heatmap->exportCsv(csv, &error), qPrintable(error));
    QFile file(csv);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll().count('\n'), int(output.outputTokens.size()) + 1);

    // So does the whole grid: every head as one image (PNG or SVG), and every weight as a CSV line.
    const QString gridPng = m_dir.filePath(QStringLiteral("heads.png"));
    QVERIFY2(grid->exportImage(gridPng, 800, 500, &error), qPrintable(error));
    QCOMPARE(QImage(gridPng).size(), QSize(800, 500));
    const QString gridSvg = m_dir.filePath(QStringLiteral("heads.svg"));
    QVERIFY2(grid->exportImage(gridSvg, 800, 500, &error), qPrintable(error));
    QFile svg(gridSvg);
    QVERIFY(svg.open(QIODevice::ReadOnly));
    QVERIFY(svg.readAll().contains("head 2"));
    const QString gridCsv = m_dir.filePath(QStringLiteral("heads.csv"));
    QVERIFY2(grid->exportCsv(gridCsv, &error), qPrintable(error));
    QFile lines(gridCsv);
    QVERIFY(lines.open(QIODevice::ReadOnly));
    const QList<QByteArray> rows = lines.readAll().trimmed().split('\n');
    const int steps = int(output.outputTokens.size());
    QCOMPARE(rows.size(), 1 + 2 * 2 * steps * steps);
    QCOMPARE(rows[0], QByteArray("layer,head,query_position,query,key_position,key,weight,head_caption"));
    // Layer 1, head 1, the first step over <SOS>: the decoder's first row is all on <SOS>.
    QVERIFY2(rows[1].startsWith("1,1,1," + output.outputTokens[0] + ",1,<SOS>,1.000000,\"same "), rows[1].constData());

    // Nothing to export once the sentence is gone: a clear refusal, no file.
    panel->setText(QString());
    const QString none = m_dir.filePath(QStringLiteral("none.csv"));
    QVERIFY(!grid->exportCsv(none, &error));
    QVERIFY2(error.contains(QStringLiteral("type a sentence")), qPrintable(error));
    QVERIFY(!QFile::exists(none));

    // File ▸ Save writes the kept epoch; opening it decodes as the run did. A damaged file is
    // refused with the reason and changes nothing.
    panel->setText(QStringLiteral("the cat sat on"));
    const std::vector<std::string> decodedBefore = panel->output().outputTokens;
    const std::vector<float> crossBefore = panel->output().cross.weights[1][1];
    Document *document = m_window->document(m_lab);
    QVERIFY(document->isModified());
    const QString model = m_dir.filePath(QStringLiteral("transformer.ckpt"));
    QVERIFY2(document->saveFile(model, &error), qPrintable(error));
    QVERIFY(!document->isModified());
    QFile saved(model);
    QVERIFY(saved.open(QIODevice::ReadOnly));
    QByteArray bytes = saved.readAll();
    QVERIFY(bytes.startsWith("ATNSTFMR"));
    bytes[bytes.size() / 2] = char(bytes[bytes.size() / 2] ^ 0x55);
    const QString damaged = m_dir.filePath(QStringLiteral("damaged.ckpt"));
    QFile out(damaged);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(bytes);
    out.close();
    QVERIFY(!m_window->files()->openFile(damaged, &error));
    QVERIFY2(error.contains(QStringLiteral("damaged")) || error.contains(QStringLiteral("checksum")), qPrintable(error));
    QCOMPARE(panel->output().outputTokens, decodedBefore);
    QCOMPARE(document->currentFile(), model);

    setNumberField(m_lab->setup(), "layers", 1);  // the file's settings come back with it
    QVERIFY2(m_window->files()->openFile(model, &error), qPrintable(error));
    QCOMPARE(m_lab->setup()->modelConfig().layers, 2);
    QCOMPARE(panel->output().outputTokens, decodedBefore);
    QCOMPARE(panel->output().cross.weights[1][1], crossBefore);
    QCOMPARE(int(m_lab->history().size()), 3);
    QVERIFY(!epochs->isEnabled());
    QVERIFY2(m_lab->statusText().startsWith(QStringLiteral("transformer.ckpt: 2 + 2 layers")),
             qPrintable(m_lab->statusText()));
}

void TestTransformerLab::comparesRunsOfEveryLab()
{
    // A run another lab shares joins the table and the plot, in the same terms.
    SharedRun rnn;
    rnn.architecture = QStringLiteral("RNN");
    rnn.label = QStringLiteral("bahdanau, hidden 64, \"quoted\"");
    rnn.data = QStringLiteral("reverse, seed 42");
    rnn.seed = 7;
    rnn.testExactMatch = 0.995;
    rnn.byLength = {{3, {10, 10}}, {30, {1, 4}}};
    rnn.trainedMinLength = 3;
    rnn.trainedMaxLength = 10;
    rnn.secondsTo99 = -1;
    rnn.parameters = 1234;
    rnn.samplesPerSecond = 2000;
    QAction *csvAction = nullptr;
    for (QAction *action : m_lab->exportActions())
        if (action->objectName() == QStringLiteral("exportRunsCsv"))
            csvAction = action;
    QVERIFY(csvAction);
    QVERIFY(!csvAction->isEnabled());
    const QString refused = m_dir.filePath(QStringLiteral("no-runs.csv"));
    QString error;
    QVERIFY(!m_lab->comparison()->exportCsv(refused, &error));
    QVERIFY(!QFile::exists(refused));

    Lab *attention = nullptr;
    for (Lab *lab : m_window->labs())
        if (lab != m_lab)
            attention = lab;
    QVERIFY(attention);
    m_window->shareRun(attention, rnn);
    RunComparisonView *comparison = m_lab->comparison();
    QCOMPARE(int(comparison->runs().size()), 1);
    QVERIFY(csvAction->isEnabled());
    QTableWidget *table = comparison->table();
    QCOMPARE(table->item(0, 0)->text(), QStringLiteral("RNN"));
    QCOMPARE(table->item(0, 4)->text(), QStringLiteral("not reached"));
    QCOMPARE(comparison->lengthPlot()->runCount(), 1);
    // A lab does not take back what it shares itself.
    m_window->shareRun(m_lab, rnn);
    QCOMPARE(int(comparison->runs().size()), 1);

    // The CSV: a line per run and length, the label quoted.
    const QString path = m_dir.filePath(QStringLiteral("runs.csv"));
    QVERIFY2(comparison->exportCsv(path, &error), qPrintable(error));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = file.readAll().trimmed().split('\n');
    QCOMPARE(lines.size(), 3);
    QCOMPARE(lines[2], QByteArray("1,RNN,\"bahdanau, hidden 64, \"\"quoted\"\"\",7,0.995000,,1234,2000.0,"
                                  "\"reverse, seed 42\",30,1,4"));
}

void TestTransformerLab::showUntrainedSnapshot()
{
    TransformerConfig config;
    config.layers = 2;
    config.heads = 4;
    config.modelSize = 16;
    config.feedForwardSize = 24;
    const Vocabulary vocabulary({"the", "cat", "sat", "on", "mat", "red"});
    const TransformerModel model(config, vocabulary, Task::Reverse, 3);
    m_lab->reversePanel()->setSnapshot(std::make_shared<const TransformerSnapshot>(
        TransformerSnapshot{model.inference(), vocabulary, config, Task::Reverse, 4, model.parameterCount()}));
    m_lab->reversePanel()->setText(QStringLiteral("the red cat sat"));
    QVERIFY(m_lab->reversePanel()->hasOutput());
}

void TestTransformerLab::explainsAHeadsWeight()
{
    showUntrainedSnapshot();
    TransformerReversePanel *panel = m_lab->reversePanel();
    AttentionHeatmap *heatmap = panel->heatmap();
    panel->setKind(TransformerReversePanel::Kind::EncoderSelf);
    panel->headGrid()->select(1, 2);
    QVERIFY(panel->cellText().contains(QStringLiteral("double-click")));
    heatmap->selectCell(1, 3);
    const QString weight = QLocale().toString(double(heatmap->weight(1, 3)), 'f', 3);
    QVERIFY2(panel->cellText().contains(QStringLiteral("<b>red</b>")) && panel->cellText().contains(weight),
             qPrintable(panel->cellText()));

    // The explanation of the selected cell, with the snapshot's numbers; it follows the cell and the head.
    HeatmapExplainer *explainer = panel->explainer();
    explainer->action()->trigger();
    QVERIFY(explainer->dialog()->isVisible());
    QString text = explainer->view()->toPlainText();
    QVERIFY2(text.contains(QStringLiteral("Layer 2, head 3 of the encoder's self-attention")), qPrintable(text));
    QVERIFY(text.contains(explanationtext::number(double(heatmap->weight(1, 3)))));
    QVERIFY(text.contains(QStringLiteral("√4")));  // d_k = 16 / 4
    QVERIFY(text.contains(QStringLiteral("layer norm")));
    panel->headGrid()->select(0, 1);
    QCOMPARE(heatmap->selectedRow(), 1);
    QCOMPARE(heatmap->selectedColumn(), 3);
    text = explainer->view()->toPlainText();
    QVERIFY2(text.contains(QStringLiteral("Layer 1, head 2")), qPrintable(text));
    QVERIFY(text.contains(explanationtext::number(double(heatmap->weight(1, 3)))));

    // The decoder's self-attention: a later step's cell is masked, its weight exactly 0.
    panel->setKind(TransformerReversePanel::Kind::DecoderSelf);
    QVERIFY(heatmap->rows() >= 2);
    heatmap->selectCell(0, 1);
    text = explainer->view()->toPlainText();
    QVERIFY2(text.contains(QStringLiteral("masked")) && text.contains(QStringLiteral("−∞")), qPrintable(text));
    QVERIFY(!panel->openInExplorerAction()->isEnabled());
    panel->setKind(TransformerReversePanel::Kind::Cross);
    heatmap->selectCell(1, 0);
    text = explainer->view()->toPlainText();
    QVERIFY2(text.contains(QStringLiteral("the encoder's output")), qPrintable(text));
    QVERIFY(text.contains(explanationtext::number(double(heatmap->weight(1, 0)))));
    explainer->dialog()->close();
}

void TestTransformerLab::opensAHeadInTheExplorer()
{
    showUntrainedSnapshot();
    TransformerReversePanel *panel = m_lab->reversePanel();
    panel->setKind(TransformerReversePanel::Kind::EncoderSelf);
    panel->headGrid()->select(1, 2);
    QAction *open = panel->openInExplorerAction();
    QVERIFY(open->isEnabled());
    open->trigger();

    // The explorer is shown, with the head's X and projections: its weights are the head's.
    auto *explorer = m_window->lab<SelfAttentionLab>();
    QCOMPARE(m_window->shownLab(), static_cast<Lab *>(explorer));
    SelfAttentionPanel *explorerPanel = explorer->panel();
    QCOMPARE(explorerPanel->controls()->source(), SelfAttentionControls::Source::Head);
    QVERIFY(explorerPanel->hasResult());
    const TransformerOutput &output = panel->output();
    const int n = int(output.sourceTokens.size());
    QCOMPARE(explorerPanel->tokens().size(), n);
    QCOMPARE(explorerPanel->result().dModel(), 17);  // 16 and the column of 1s that carries the biases
    const std::vector<float> &expected = output.encoderSelf.weights[1][2];
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
            QVERIFY(std::abs(explorerPanel->result().weights.at(i, j) - double(expected[std::size_t(i * n + j)])) < 1e-5);
    auto *source = explorerPanel->findChild<QLabel *>(QStringLiteral("selfAttentionExplanation"));
    QVERIFY2(source->text().contains(QStringLiteral("Transformer encoder layer 2, head 3, epoch 4")),
             qPrintable(source->text()));
    // The head's words stand in the sentence field, which cannot be edited meanwhile.
    auto *sentence = explorerPanel->controls()->findChild<QLineEdit *>(QStringLiteral("selfAttentionSentence"));
    QCOMPARE(sentence->text(), QStringLiteral("the red cat sat <EOS>"));
    QVERIFY(!sentence->isEnabled());

    // And back to random numbers.
    emit source->linkActivated(QStringLiteral("random"));
    QCOMPARE(explorerPanel->controls()->source(), SelfAttentionControls::Source::Random);
    QCOMPARE(explorerPanel->result().dModel(), explorerPanel->controls()->dModel());
    QVERIFY(sentence->isEnabled());
    QCOMPARE(sentence->text(), QStringLiteral("I love AI"));
}

void TestTransformerLab::beamSearchListsItsHypotheses()
{
    showUntrainedSnapshot();
    checkBeamSearchOfThePanel(m_lab->reversePanel());
}

void TestTransformerLab::refusesBadSettingsClearly()
{
    setNumberField(m_lab->setup(), "heads", 3);  // 128 is no multiple of 3
    QVERIFY2(m_lab->trainProblem().contains(QStringLiteral("multiple of the number of heads")),
             qPrintable(m_lab->trainProblem()));
    setNumberField(m_lab->setup(), "heads", 4);
    QVERIFY(m_lab->trainProblem().isEmpty());
    m_lab->setup()->findChild<QLineEdit *>(QStringLiteral("corpus"))->setText(m_dir.filePath(QStringLiteral("none.txt")));
    QVERIFY(m_lab->trainProblem().isEmpty());  // the file is read when training starts
    m_window->train();
    QTRY_VERIFY_WITH_TIMEOUT(m_window->runState()->isQuiet(), 20000);
    QVERIFY2(m_lab->statusText().contains(QStringLiteral("none.txt")), qPrintable(m_lab->statusText()));
    QVERIFY(m_lab->history().empty());
}

void TestTransformerLab::settingsPersist()
{
    setNumberField(m_lab->setup(), "heads", 8);
    setNumberField(m_lab->setup(), "epochs", 7);
    setNumberField(m_lab->setup(), "data-seed", 9);
    m_lab->reversePanel()->setText(QStringLiteral("red fox"));
    m_lab->reversePanel()->setKind(TransformerReversePanel::Kind::DecoderSelf);
    m_lab->reversePanel()->beamBox()->setOptions(BeamOptions{6, 1.2, 1});
    m_window->close();  // saves the settings
    MainWindow *other = new MainWindow;
    addRegisteredLabs(other);
    auto *lab = other->lab<TransformerLab>();
    QCOMPARE(lab->setup()->modelConfig().heads, 8);
    QCOMPARE(lab->setup()->trainingConfig().epochs, 7);
    QCOMPARE(int(lab->setup()->dataConfig().seed), 9);
    QCOMPARE(lab->reversePanel()->text(), QStringLiteral("red fox"));
    QCOMPARE(lab->reversePanel()->kind(), TransformerReversePanel::Kind::DecoderSelf);
    QCOMPARE(lab->reversePanel()->beamBox()->options().width, 6);
    QCOMPARE(lab->reversePanel()->beamBox()->options().alpha, 1.2);
    delete other;
}

ATTNSCOPE_TEST(transformerlab, TestTransformerLab)
#include "tst_transformerlab.moc"
