#include "tests/common/testregistry.h"
#include "engine/core/dataset.h"
#include "engine/core/tokenizer.h"
#include "ui/attention/alignmentplot.h"
#include "tests/common/workbenchfixture.h"
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

namespace {

QString reversed(const QString &sentence)
{
    QStringList words = sentence.split(QLatin1Char(' '));
    std::reverse(words.begin(), words.end());
    return words.join(QLatin1Char(' '));
}

}

// The attention lab in its window, without a worker: typing, the heatmap, beam search and the
// settings that decide whether Train is offered.
class TestAttentionLab : public QObject
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
    void absurdSettingsCannotBeEntered();
    void oddSentencesGiveOutputOrAMessage_data();
    void oddSentencesGiveOutputOrAMessage();

private:
    ModelSnapshot m_model;
    MainWindow *m_window = nullptr;
    AttentionLab *m_lab = nullptr;
};

void TestAttentionLab::initTestCase()
{
    useTestSettings(QStringLiteral("tst_attentionlab"));
    m_model = learntQuickModel();
    QVERIFY2(m_model, "the tiny model should learn to reverse six words");
}

void TestAttentionLab::init()
{
    m_window = shownWorkbench();
    m_lab = m_window->lab<AttentionLab>();
    QVERIFY(QTest::qWaitForWindowExposed(m_window));
}

void TestAttentionLab::cleanup()
{
    delete m_window;
    m_window = nullptr;
}

void TestAttentionLab::typingShowsTheReversal_data()
{
    QTest::addColumn<QString>("sentence");
    QTest::newRow("two words") << QStringLiteral("red cat");
    QTest::newRow("three words") << QStringLiteral("blue dog fish");
    QTest::newRow("four words") << QStringLiteral("green fish red dog");
}

void TestAttentionLab::typingShowsTheReversal()
{
    QFETCH(QString, sentence);
    InferencePanel *panel = m_lab->inferencePanel();
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

void TestAttentionLab::clickingAHeatmapCellHighlightsTokens()
{
    InferencePanel *panel = m_lab->inferencePanel();
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

void TestAttentionLab::unknownWordsAreMarked()
{
    InferencePanel *panel = m_lab->inferencePanel();
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

void TestAttentionLab::withoutAModelTheInferenceViewSaysSo()
{
    InferencePanel *panel = m_lab->inferencePanel();
    panel->inputField()->clear();
    QTest::keyClicks(panel->inputField(), QStringLiteral("red cat"));
    QTest::qWait(100);
    QVERIFY(!panel->hasSentence());
    auto *output = m_window->findChild<QLabel *>(QStringLiteral("outputTokens"));
    QVERIFY2(output->text().contains(QStringLiteral("press Train (F5)")), qPrintable(output->text()));
    QVERIFY(!m_window->saveAction()->isEnabled());
    QVERIFY(!m_lab->exports()->heatmapAction()->isEnabled());
}

void TestAttentionLab::invalidSettingsDisableTrain_data()
{
    QTest::addColumn<int>("minLength");
    QTest::addColumn<int>("maxLength");
    QTest::addColumn<QString>("words");
    QTest::addColumn<bool>("valid");
    QTest::newRow("defaults") << 3 << 10 << QStringLiteral("a b c") << true;
    QTest::newRow("max below min") << 5 << 4 << QStringLiteral("a b c") << false;
    QTest::newRow("no words") << 3 << 10 << QStringLiteral("") << false;
}

void TestAttentionLab::invalidSettingsDisableTrain()
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
    m_lab->datasetPanel()->setConfig(c);
    QCOMPARE(m_window->trainAction()->isEnabled(), valid);
    QCOMPARE(m_lab->datasetPanel()->problem().isEmpty(), valid);
    // No worker answers here: a run that starts stays in training.
    m_window->trainAction()->trigger();
    m_window->train();
    QCOMPARE(m_window->runState()->phase(), valid ? RunState::Phase::Training : RunState::Phase::Idle);
}

void TestAttentionLab::absurdSettingsCannotBeEntered()
{
    // Whatever is typed into any number field, Train is offered only for settings the engine accepts.
    QList<QAbstractSpinBox *> boxes = m_lab->trainingPanel()->findChildren<QAbstractSpinBox *>();
    boxes += m_lab->datasetPanel()->findChildren<QAbstractSpinBox *>();
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
            const DatasetConfig data = m_lab->datasetPanel()->config();
            const ModelConfig model = m_lab->trainingPanel()->modelConfig();
            const TrainingConfig training = m_lab->trainingPanel()->trainingConfig();
            const bool valid = validate(data).empty() && validate(model).empty() && validate(training).empty();
            QVERIFY2(valid || !m_window->trainAction()->isEnabled(),
                     qPrintable(QStringLiteral("'%1' in %2").arg(text, box->toolTip().left(40))));
        }
    }
    // The absurd values were refused outright: no size or count fell to zero or below.
    const ModelConfig model = m_lab->trainingPanel()->modelConfig();
    QVERIFY(model.embedSize >= 1 && model.hiddenSize >= 2 && model.layers >= 1);
    const TrainingConfig training = m_lab->trainingPanel()->trainingConfig();
    QVERIFY(training.learningRate > 0 && training.learningRate <= 10 && training.batchSize >= 1 && training.epochs >= 1);
}

void TestAttentionLab::oddSentencesGiveOutputOrAMessage_data()
{
    QTest::addColumn<QString>("sentence");
    QTest::addColumn<QString>("shown");
    QTest::newRow("empty") << QString() << QStringLiteral("Type a sentence above");
    QTest::newRow("only spaces") << QStringLiteral("     ") << QStringLiteral("Type a sentence above");
    QTest::newRow("1000 words") << QStringLiteral("red cat ").repeated(500) << QStringLiteral("cut to the first 100 tokens");
    QTest::newRow("unicode") << QStringLiteral("café 猫 🐈") << QStringLiteral("café");
    QTest::newRow("punctuation only") << QStringLiteral("?!...") << QStringLiteral("?");
}

void TestAttentionLab::oddSentencesGiveOutputOrAMessage()
{
    QFETCH(QString, sentence);
    QFETCH(QString, shown);
    InferencePanel *panel = m_lab->inferencePanel();
    panel->setModel(m_model, QStringLiteral("tiny test model"));
    panel->setText(sentence);
    auto *source = m_window->findChild<QLabel *>(QStringLiteral("sourceTokens"));
    auto *output = m_window->findChild<QLabel *>(QStringLiteral("outputTokens"));
    QVERIFY2((source->text() + output->text()).contains(shown), qPrintable(source->text() + output->text()));
}

ATTNSCOPE_TEST(attentionlab, TestAttentionLab)
#include "tst_attentionlab.moc"
