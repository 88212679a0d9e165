#include "tests/common/testregistry.h"
#include "app/workbench/trainingcontroller.h"
#include "engine/charlm/builtintexts.h"
#include "engine/charlm/charattribution.h"
#include "engine/charlm/charcheckpoint.h"
#include "tests/common/randomcharweights.h"
#include "tests/common/workbenchfixture.h"
#include "ui/workbench/workbenchfiles.h"
#include "ui/workbench/document.h"
#include "ui/charlm/charattributionstrip.h"
#include "ui/charlm/charattributionview.h"
#include "ui/charlm/charlmlab.h"
#include "ui/charlm/chartextpanel.h"
#include "ui/charlm/charvaluetext.h"
#include "ui/charlm/memorisationplot.h"
#include "ui/charlm/readoutpanel.h"
#include "ui/charlm/samplebox.h"
#include "ui/charlm/samplehistory.h"
#include "ui/core/lossplot.h"
#include "ui/workbench/mainwindow.h"

#include <QAction>
#include <QComboBox>
#include <QDockWidget>
#include <QSettings>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableWidget>
#include <QTest>
#include <QTreeWidget>

#include <algorithm>
#include <cmath>

// The character lab in the window, trained through the real worker: the short sentence learnt by
// heart, the live views, sampling, the readout, the ranked units, the next character explained,
// exports, the model file, Stop, the setup's text handling and settings.
class TestCharLmLab : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void init();
    void cleanup();
    void shortTextIsLearntAndExplored();
    void stopKeepsTheLastWeights();
    void nextCharacterIsExplained();
    void attributionWaitsForTraining();
    void shortTextSettingsAreShownAndUndone();
    void badTextsAreRefusedWithTheirReason();
    void wrongModelFileIsRefused();
    void settingsPersist();

private:
    void setField(const char *key, int value);
    void trainAndWait();
    QByteArray fileStart(const QString &path, int bytes) const;

    QTemporaryDir m_dir;
    MainWindow *m_window = nullptr;
    TrainingController *m_controller = nullptr;
    CharLmLab *m_lab = nullptr;
};

void TestCharLmLab::initTestCase()
{
    useTestSettings(QStringLiteral("tst_charlmlab"));
    QVERIFY(m_dir.isValid());
}

void TestCharLmLab::init()
{
    m_window = shownWorkbench(QStringLiteral("charlm"));
    m_controller = new TrainingController(m_window);
    m_lab = m_window->lab<CharLmLab>();
    QVERIFY(m_lab);
    QCOMPARE(m_window->shownLab(), m_lab);
}

void TestCharLmLab::cleanup()
{
    delete m_controller;
    delete m_window;
}

void TestCharLmLab::setField(const char *key, int value)
{
    auto *box = m_lab->textPanel()->findChild<QSpinBox *>(QString::fromLatin1(key));
    QVERIFY2(box, key);
    box->setValue(value);
}

void TestCharLmLab::trainAndWait()
{
    QVERIFY2(m_lab->trainProblem().isEmpty(), qPrintable(m_lab->trainProblem()));
    m_window->train();
    QVERIFY(m_window->runState()->isTraining());
    QTRY_VERIFY_WITH_TIMEOUT(m_window->runState()->isQuiet(), 60000);
}

QByteArray TestCharLmLab::fileStart(const QString &path, int bytes) const
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.read(bytes) : QByteArray();
}

void TestCharLmLab::shortTextIsLearntAndExplored()
{
    m_lab->textPanel()->chooseSource(CharTextPanel::Source::ShortText);
    setField("threads", 1);
    const CharTrainingConfig training = m_lab->textPanel()->trainingConfig();
    QCOMPARE(training.epochs, CharTextPanel::kShortTextEpochs);
    trainAndWait();

    // The loss, per window and per epoch, beside the counting baseline.
    QVERIFY(m_lab->net());
    QCOMPARE(int(m_lab->history().size()), training.epochs);
    QCOMPARE(m_lab->lossPlot()->epochPointCount(), training.epochs);
    QVERIFY(m_lab->lossPlot()->batchPointCount() > 0);
    QVERIFY(m_lab->lossPlot()->hasReferenceLine());
    QVERIFY2(m_lab->lossPlot()->referenceLabel().contains(QStringLiteral("-gram")), qPrintable(m_lab->lossPlot()->referenceLabel()));
    QVERIFY(m_lab->history().back().trainBitsPerChar < m_lab->history().front().trainBitsPerChar);
    QVERIFY(m_lab->history().back().trainBitsPerChar < m_lab->lossPlot()->referenceValue());  // beats counting

    // A sample before training, every 25 iterations and none twice at the end.
    const int every = m_lab->sampleHistory()->settings().every;
    QCOMPARE(m_lab->sampleHistory()->sampleCount(), 1 + training.epochs / every);
    QVERIFY(m_lab->sampleHistory()->plainText().startsWith(QStringLiteral("== Before training")));

    // Learnt by heart: from its first character the model recites the rest of the sentence.
    const int64_t rest = int64_t(builtInShortText().size()) - 1;
    QCOMPARE(m_lab->memorisationPlot()->pointCount(), m_lab->sampleHistory()->sampleCount());
    QCOMPARE(m_lab->memorisationPlot()->lastValue(), rest);

    // Greedy sampling from the prime recites it too; the entropy strip has a value per character.
    SampleBox *sampler = m_lab->sampleBox();
    sampler->setTemperature(0);
    sampler->setPrime(QStringLiteral("The"));
    sampler->setLength(int(rest) - 2);
    sampler->sample();
    QVERIFY(sampler->hasSample());
    QCOMPARE(sampler->plainText(), QString::fromStdString(builtInShortText()));
    QCOMPARE(int(sampler->result().entropyBits.size()), int(rest) - 2);
    QCOMPARE(sampler->view()->cellCount(), int(builtInShortText().size()));
    QCOMPARE(sampler->meanEntropy(), 0.0);  // greedy: every character certain
    sampler->setTemperature(1.5);
    sampler->sample();
    QVERIFY(sampler->meanEntropy() > 0);
    sampler->setTopK(1);  // only the likeliest: greedy again, whatever the temperature
    sampler->sample();
    QCOMPARE(sampler->plainText(), QString::fromStdString(builtInShortText()));
    QCOMPARE(sampler->meanEntropy(), 0.0);

    // Type and see: the five likeliest next characters after each one typed, most likely first.
    ReadoutPanel *readout = m_lab->readoutPanel();
    readout->setText(QStringLiteral("The quick"));
    readout->refresh();
    QTableWidget *table = readout->nextTable();
    QCOMPARE(table->rowCount(), 9);
    for (int row = 0; row < table->rowCount(); ++row)
        for (int k = 1; k <= ReadoutPanel::kTopK; ++k)
            QVERIFY2(!table->item(row, k)->text().isEmpty(), qPrintable(QStringLiteral("row %1 column %2").arg(row).arg(k)));
    const std::vector<CharReadout::Next> &afterQuick = readout->readout().next.back();
    QCOMPARE(int(afterQuick.size()), ReadoutPanel::kTopK);
    QCOMPARE(afterQuick.front().character, U' ');
    QVERIFY(afterQuick[0].probability >= afterQuick[1].probability);
    QCOMPARE(readout->activationView()->cellCount(), 9);

    // The units ranked strongest first; clicking one colours the text by it.
    QTreeWidget *units = readout->unitList();
    QTRY_VERIFY(units->topLevelItemCount() > 0);
    const std::vector<UnitScore> &ranking = readout->ranking();
    for (size_t i = 1; i < ranking.size(); ++i)
        QVERIFY(std::abs(ranking[i - 1].correlation) >= std::abs(ranking[i].correlation));
    QTreeWidgetItem *second = units->topLevelItem(std::min(1, units->topLevelItemCount() - 1));
    units->setCurrentItem(second);
    QCOMPARE(readout->layer(), second->data(0, Qt::UserRole).toInt());
    QCOMPARE(readout->unit(), second->data(0, Qt::UserRole + 1).toInt());
    const CharValueText *view = readout->activationView();
    QCOMPARE(view->cell(2).value, double(readout->readout().activation(2, readout->layer(), readout->unit())));

    // Exports, each written whole.
    QString error;
    for (const char *name : {"loss.png", "loss.svg", "loss.pdf"})
        QVERIFY2(m_lab->lossPlot()->exportImage(m_dir.filePath(QString::fromLatin1(name)), 800, 500, &error), qPrintable(error));
    QCOMPARE(fileStart(m_dir.filePath("loss.png"), 4), QByteArray("\x89PNG"));
    QCOMPARE(fileStart(m_dir.filePath("loss.pdf"), 4), QByteArray("%PDF"));
    QVERIFY2(m_lab->memorisationPlot()->exportImage(m_dir.filePath("memory.png"), 600, 300, &error), qPrintable(error));
    QVERIFY2(m_lab->exportSamples(m_dir.filePath("samples.txt"), &error), qPrintable(error));
    QCOMPARE(QString::fromUtf8(fileStart(m_dir.filePath("samples.txt"), 1 << 20)), m_lab->sampleHistory()->plainText());
    QVERIFY2(m_lab->exportSample(m_dir.filePath("sample.txt"), &error), qPrintable(error));
    QCOMPARE(QString::fromUtf8(fileStart(m_dir.filePath("sample.txt"), 1 << 20)), sampler->plainText());
    QVERIFY2(m_lab->exportActivations(m_dir.filePath("activations.png"), &error), qPrintable(error));
    QCOMPARE(fileStart(m_dir.filePath("activations.png"), 4), QByteArray("\x89PNG"));
    QVERIFY2(m_lab->exportActivations(m_dir.filePath("activations.svg"), &error), qPrintable(error));
    QVERIFY(fileStart(m_dir.filePath("activations.svg"), 1 << 20).contains("<svg"));
    QVERIFY2(m_lab->exportActivations(m_dir.filePath("activations.pdf"), &error), qPrintable(error));
    QCOMPARE(fileStart(m_dir.filePath("activations.pdf"), 4), QByteArray("%PDF"));
    QVERIFY(!m_lab->exportActivations(m_dir.filePath("activations.gif"), &error));
    QVERIFY(error.contains(QStringLiteral(".gif")));

    // The model file keeps the weights and the history; opened again, it recites the same.
    const QString model = m_dir.filePath("pangram.ckpt");
    QVERIFY(m_window->document(m_lab)->isModified());
    QVERIFY2(m_window->document(m_lab)->saveFile(model, &error), qPrintable(error));
    QVERIFY(!m_window->document(m_lab)->isModified());
    MainWindow *other = shownWorkbench();
    TrainingController controller(other);
    CharLmLab *opened = other->lab<CharLmLab>();
    QVERIFY2(other->files()->openFile(model, &error), qPrintable(error));
    QCOMPARE(other->shownLab(), opened);  // told by its first bytes: a character model, not an attention one
    QCOMPARE(opened->history().size(), m_lab->history().size());
    QCOMPARE(opened->lossPlot()->epochPointCount(), training.epochs);
    opened->sampleBox()->setTemperature(0);
    opened->sampleBox()->setPrime(QStringLiteral("The"));
    opened->sampleBox()->setLength(int(rest) - 2);
    opened->sampleBox()->sample();
    QCOMPARE(opened->sampleBox()->plainText(), QString::fromStdString(builtInShortText()));
    QTRY_VERIFY(opened->readoutPanel()->unitList()->topLevelItemCount() > 0);  // ranked on the worker
    QTRY_VERIFY(other->runState()->isQuiet());
    controller.shutdown();
    delete other;
}

void TestCharLmLab::stopKeepsTheLastWeights()
{
    m_lab->textPanel()->chooseSource(CharTextPanel::Source::LongText);
    setField("hidden", 32);
    setField("epochs", 10000);
    m_lab->sampleHistory()->findChild<QSpinBox *>(QStringLiteral("sampleEvery"))->setValue(2);
    m_window->train();
    QTRY_VERIFY_WITH_TIMEOUT(m_lab->sampleHistory()->sampleCount() >= 2 && m_lab->lossPlot()->batchPointCount() > 0, 30000);
    m_window->stop();
    QTRY_VERIFY_WITH_TIMEOUT(m_window->runState()->isQuiet(), 30000);
    QVERIFY(m_lab->net());
    QVERIFY2(m_lab->statusText().contains(QStringLiteral("Stopped after")), qPrintable(m_lab->statusText()));
    QVERIFY(m_lab->lossPlot()->hasReferenceLine());
}

// An opened model's next character explained on the worker: the scores the engine gives, another
// character chosen, a context it cannot read refused, and every export.
void TestCharLmLab::nextCharacterIsExplained()
{
    const CharWeights weights = randomCharWeights({RecurrentCell::Gru, /*hidden=*/16, /*layers=*/1, /*embed=*/8},
                                                  U" .Tabdeghilnorstuy", 3);
    const QString model = m_dir.filePath("random.ckpt");
    saveCharCheckpoint(model.toStdString(), CharCheckpoint{weights, CharTrainingConfig{}, {}});
    QString error;
    QVERIFY2(m_window->files()->openFile(model, &error), qPrintable(error));
    CharAttributionView *view = m_lab->attributionView();
    QCOMPARE(m_lab->pages().last().widget, view);
    m_window->showPage(view);
    const QString context = QStringLiteral("The dog sat. The bird ate. The dea");
    view->setLast(20);
    view->setContext(context);
    view->explainNow();
    QTRY_VERIFY(m_window->runState()->isQuiet() && view->hasResult() && view->attribution().characters.size() == 20);

    CharAttributionOptions options;
    options.last = 20;
    const CharAttribution expected = explainNextCharacter(weights, context.toStdU32String(), options);
    const CharAttribution &shown = view->attribution();
    QCOMPARE(shown.characters, expected.characters);
    QCOMPARE(shown.next, expected.predicted);
    QCOMPARE(shown.saliency, expected.saliency);
    QCOMPARE(shown.integratedGradients, expected.integratedGradients);
    QVERIFY2(view->summaryText().contains(QStringLiteral("%1%").arg(std::lround(100 * expected.probability))),
             qPrintable(view->summaryText()));
    QVERIFY2(view->completenessText().contains(QStringLiteral("m = 64")), qPrintable(view->completenessText()));
    // The strongest cell of each row is drawn in the row's deepest colour.
    const CharAttributionStrip *strip = view->strip();
    const int strongest = int(std::max_element(shown.saliency.begin(), shown.saliency.end()) - shown.saliency.begin());
    QCOMPARE(strip->colourAt(CharAttributionMethod::Saliency, strongest), divergingColour(1));
    QCOMPARE(strip->shareOfLargest(CharAttributionMethod::Saliency, strongest), 1.0);
    QCOMPARE(view->nextChoice()->count(), 1 + weights.alphabetSize());

    // Another character: its own probability, and the summary says so.
    const char32_t other = expected.predicted == U'r' ? U'd' : U'r';
    QVERIFY(view->chooseNext(other));
    QTRY_VERIFY(m_window->runState()->isQuiet() && view->attribution().next == other);
    QCOMPARE(view->attribution().probability, expected.probabilities[weights.alphabet.find(other)]);
    QVERIFY2(view->summaryText().contains(QStringLiteral("instead")), qPrintable(view->summaryText()));

    // Exports: the image in every format, and a CSV line per character.
    const auto exportAction = [this](const char *name) -> QAction * {
        for (QAction *action : m_lab->exportActions())
            if (action->objectName() == QLatin1String(name))
                return action;
        return nullptr;
    };
    QAction *image = exportAction("exportAttribution"), *csv = exportAction("exportAttributionCsv");
    QVERIFY(image && csv && image->isEnabled() && csv->isEnabled());
    QVERIFY2(view->exportImage(m_dir.filePath("attribution.png"), &error), qPrintable(error));
    QCOMPARE(fileStart(m_dir.filePath("attribution.png"), 4), QByteArray("\x89PNG"));
    QVERIFY2(view->exportImage(m_dir.filePath("attribution.svg"), &error), qPrintable(error));
    QVERIFY(fileStart(m_dir.filePath("attribution.svg"), 1 << 20).contains("<svg"));
    QVERIFY2(view->exportImage(m_dir.filePath("attribution.pdf"), &error), qPrintable(error));
    QCOMPARE(fileStart(m_dir.filePath("attribution.pdf"), 4), QByteArray("%PDF"));
    QVERIFY2(view->exportCsv(m_dir.filePath("attribution.csv"), &error), qPrintable(error));
    const QStringList lines = QString::fromUtf8(fileStart(m_dir.filePath("attribution.csv"), 1 << 20)).split('\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 21);
    QCOMPARE(lines.front(), QStringLiteral("position,character,saliency,integrated_gradients"));
    QVERIFY2(lines.back().startsWith(QStringLiteral("-1,a,")), qPrintable(lines.back()));

    // A character the model never saw: the engine's reason, and nothing left to export.
    view->setContext(QStringLiteral("The zebra"));
    view->explainNow();
    QTRY_VERIFY(m_window->runState()->isQuiet() && !view->statusText().isEmpty());
    QVERIFY2(view->statusText().contains(QStringLiteral("'z' (position 5) is not in the model's alphabet")),
             qPrintable(view->statusText()));
    QVERIFY(!view->hasResult());
    QVERIFY(!image->isEnabled() && !csv->isEnabled());
}

// Nothing is asked while the view is hidden or a run trains; once shown and idle, the context is
// explained.
void TestCharLmLab::attributionWaitsForTraining()
{
    CharAttributionView view;
    int asked = 0;
    connect(&view, &CharAttributionView::explainRequested, &view, [&asked](const CharAttributionRequest &) { ++asked; });
    view.setNet(std::make_shared<const CharInferenceNet>(randomCharWeights({RecurrentCell::Rnn, 4, 1, 0}, U"ab", 1)));
    view.explainNow();
    QCOMPARE(asked, 0);
    view.show();
    QCOMPARE(asked, 1);
    view.showResult(CharAttributionReady{1, {}, "the context has characters the model lacks"});
    view.setTrainingRuns(true);
    view.setContext(QStringLiteral("abba"));
    view.explainNow();
    QCOMPARE(asked, 1);
    QVERIFY2(view.statusText().contains(QStringLiteral("Training is running")), qPrintable(view.statusText()));
    view.setTrainingRuns(false);
    QCOMPARE(asked, 2);
    // One request out at a time: what changes meanwhile is asked for when the answer comes.
    view.setContext(QStringLiteral("ab"));
    view.explainNow();
    QCOMPARE(asked, 2);
    view.showResult(CharAttributionReady{2, {}, "stale"});
    QCOMPARE(asked, 3);
}

void TestCharLmLab::shortTextSettingsAreShownAndUndone()
{
    CharTextPanel *panel = m_lab->textPanel();
    const CharTrainingConfig before = panel->trainingConfig();
    panel->chooseSource(CharTextPanel::Source::ShortText);
    QCOMPARE(panel->trainingConfig().epochs, CharTextPanel::kShortTextEpochs);
    QCOMPARE(panel->trainingConfig().lr, CharTextPanel::kShortTextLearningRate);
    QVERIFY2(panel->settingsNote().contains(QStringLiteral("one window an epoch")), qPrintable(panel->settingsNote()));
    // The preview says why: one stream, one window, and no validation tail to spare.
    QVERIFY2(panel->previewText().startsWith(QStringLiteral("44 characters, 29 distinct.")), qPrintable(panel->previewText()));
    QVERIFY(panel->previewText().contains(QStringLiteral("1 window an epoch")));
    QVERIFY(panel->previewText().contains(QStringLiteral("No validation")));
    QVERIFY2(panel->warningText().contains(QStringLiteral("by heart")), qPrintable(panel->warningText()));

    panel->findChild<QPushButton *>(QStringLiteral("undoTextSettings"))->click();
    QCOMPARE(panel->trainingConfig().epochs, before.epochs);
    QCOMPARE(panel->trainingConfig().lr, before.lr);
    QVERIFY(panel->settingsNote().isEmpty());

    // Leaving the short sentence with its settings as they were brought puts the others back.
    panel->chooseSource(CharTextPanel::Source::ShortText);
    panel->chooseSource(CharTextPanel::Source::LongText);
    QCOMPARE(panel->trainingConfig().epochs, before.epochs);
    QVERIFY(panel->previewText().contains(QStringLiteral("validating on the last")));
    // Settings changed by hand stay as they are.
    panel->chooseSource(CharTextPanel::Source::ShortText);
    setField("epochs", 123);
    panel->chooseSource(CharTextPanel::Source::LongText);
    QCOMPARE(panel->trainingConfig().epochs, 123);
}

void TestCharLmLab::badTextsAreRefusedWithTheirReason()
{
    CharTextPanel *panel = m_lab->textPanel();
    QFile file(m_dir.filePath("image.bin"));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QByteArray("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16).repeated(40));
    file.close();
    panel->setFile(file.fileName());
    QVERIFY(!panel->text());
    QVERIFY2(m_lab->trainProblem().contains(QStringLiteral("binary")), qPrintable(m_lab->trainProblem()));
    QVERIFY(panel->previewText().contains(QStringLiteral("binary")));
    m_window->train();
    QVERIFY(!m_window->runState()->isTraining());

    panel->chooseSource(CharTextPanel::Source::Typed);
    panel->setTypedText(QStringLiteral("aaaaaaaa"));
    QVERIFY2(m_lab->trainProblem().contains(QStringLiteral("one character repeated")), qPrintable(m_lab->trainProblem()));
    panel->setTypedText(QStringLiteral("abab abab"));
    QVERIFY(m_lab->trainProblem().isEmpty());
    QVERIFY(panel->previewText().startsWith(QStringLiteral("9 characters, 3 distinct.")));
}

void TestCharLmLab::wrongModelFileIsRefused()
{
    QString error;
    QVERIFY(!m_window->files()->openFile(m_dir.filePath("missing.ckpt"), &error));
    QVERIFY(!error.isEmpty());
    QFile file(m_dir.filePath("notes.ckpt"));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("these are notes, not a model\n");
    file.close();
    error.clear();
    QVERIFY(!m_window->files()->openFile(file.fileName(), &error));
    QVERIFY2(error.contains(QStringLiteral("not a file")), qPrintable(error));
    // A character model's signature on damaged contents reaches the lab, which says what is wrong.
    QFile damaged(m_dir.filePath("damaged.ckpt"));
    QVERIFY(damaged.open(QIODevice::WriteOnly));
    damaged.write(QByteArray(charcheckpoint::kSignature, sizeof(signedfile::Signature)) + QByteArray(40, '\x7f'));
    damaged.close();
    error.clear();
    QVERIFY(!m_window->files()->openFile(damaged.fileName(), &error));
    QVERIFY2(error.startsWith(QStringLiteral("damaged.ckpt: ")) && error.size() > 20, qPrintable(error));
    QVERIFY(!m_lab->net());
    QVERIFY(!m_window->document(m_lab)->saveFile(m_dir.filePath("nothing.ckpt"), &error));
    QVERIFY(!QFile::exists(m_dir.filePath("nothing.ckpt")));
}

void TestCharLmLab::settingsPersist()
{
    m_lab->textPanel()->chooseSource(CharTextPanel::Source::Typed);
    m_lab->textPanel()->setTypedText(QStringLiteral("hello world\n"));
    setField("hidden", 77);
    m_lab->readoutPanel()->setText(QStringLiteral("hello"));
    m_lab->sampleBox()->setTemperature(1.25);
    MainWindow *other = shownWorkbench();  // clears the settings first
    CharLmLab *opened = other->lab<CharLmLab>();
    QSettings settings;
    m_lab->saveSettings(settings);
    opened->restoreSettings(settings);
    QCOMPARE(opened->textPanel()->source(), CharTextPanel::Source::Typed);
    QCOMPARE(opened->textPanel()->modelConfig().hidden, 77);
    QVERIFY(opened->textPanel()->previewText().startsWith(QStringLiteral("12 characters")));
    QCOMPARE(opened->readoutPanel()->text(), QStringLiteral("hello"));
    QCOMPARE(opened->sampleBox()->temperature(), 1.25);
    delete other;
}

ATTNSCOPE_TEST(charlmlab, TestCharLmLab)
#include "tst_charlmlab.moc"
