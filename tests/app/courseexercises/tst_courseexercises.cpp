#include "tests/common/testregistry.h"
#include "app/workbench/labmodule.h"
#include "app/workbench/trainingcontroller.h"
#include "tests/common/workbenchfixture.h"
#include "ui/attention/attentionlab.h"
#include "ui/attention/beamsearchpage.h"
#include "ui/attention/datasetpanel.h"
#include "ui/attention/experimentspanel.h"
#include "ui/attention/inferencepanel.h"
#include "ui/attention/trainingpanel.h"
#include "ui/charlm/charlmlab.h"
#include "ui/charlm/chartextpanel.h"
#include "ui/core/guidepane.h"
#include "ui/selfattention/selfattentioncontrols.h"
#include "ui/selfattention/selfattentionlab.h"
#include "ui/selfattention/selfattentionpanel.h"
#include "ui/word2vec/corpuspanel.h"
#include "ui/word2vec/word2veclab.h"
#include "ui/workbench/exerciseguide.h"
#include "ui/workbench/mainwindow.h"
#include "ui/workbench/startpage.h"

#include <QLayout>
#include <QMenu>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollBar>
#include <QTextBrowser>
#include <QSignalSpy>
#include <QTest>
#include <QToolButton>

namespace {

bool holds(const QLayout *layout, const QWidget *widget)
{
    for (int i = 0; i < layout->count(); ++i) {
        QLayoutItem *item = layout->itemAt(i);
        if (item->widget() == widget || (item->layout() && holds(item->layout(), widget)))
            return true;
    }
    return false;
}

// Every field of `fields` but paths (chosen with their own controls) has its editor in a row of
// `panel`, not loose on top of it where a student cannot tell what it sets.
template <typename Config>
void verifyRows(const QWidget *panel, const std::vector<ConfigField<Config>> &fields)
{
    for (const ConfigField<Config> &field : fields) {
        if (field.type == FieldType::Path)
            continue;
        const auto *editor = panel->findChild<QWidget *>(QString::fromStdString(field.key));
        QVERIFY2(editor, field.key.c_str());
        const QWidget *parent = editor->parentWidget();
        QVERIFY2(parent && parent->layout() && holds(parent->layout(), editor), field.key.c_str());
    }
}

} // namespace

class TestCourseExercises : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { useTestSettings(QStringLiteral("tst_courseexercises")); }
    void init()
    {
        m_window = shownWorkbench();
        m_lab = m_window->lab<AttentionLab>();
        QVERIFY(QTest::qWaitForWindowExposed(m_window));
    }
    void cleanup()
    {
        delete m_window;
        m_window = nullptr;
    }
    void openWithTheirSettings();
    void everySettingHasARowOnItsSetupDock();
    void digitsAnswersSgdAndAdamSideBySide();
    void charRnnAndSkipGramAnswerAfterTraining();
    void variantsAndBeamsAnswerFromTheirPages();

private:
    // Triggers the Course ▸ Exercises entry of the exercise `name`.
    void openExercise(const std::string &name);
    // Trains the shown lab as Train (F5) does and waits for the exercise's answers.
    bool trainAndAnswer();

    MainWindow *m_window = nullptr;
    AttentionLab *m_lab = nullptr;
};

// Course ▸ Exercises: each entry shows its lab and its question, and the attention lab's presets
// set exactly the exercise's settings (issue 35's table).
void TestCourseExercises::openWithTheirSettings()
{
    const QList<QAction *> entries = m_window->exercisesMenu()->actions();
    int listed = 0;
    for (std::size_t i = 0; i < labModules().size(); ++i)
        for (const Exercise &exercise : labModules()[i].exercises) {
            QAction *entry = entries.value(listed++);
            QVERIFY(entry);
            QCOMPARE(entry->text(), QString::fromStdString(exercise.title));
            m_window->showLab(nullptr);
            entry->trigger();
            QCOMPARE(m_window->shownLab(), m_window->labs().at(int(i)));
            QVERIFY(m_window->guidePane()->isVisible());
            QVERIFY(m_window->guidePane()->guide().contains(QString::fromStdString(exercise.title)));
            QVERIFY(m_window->guidePane()->guide().contains(QStringLiteral("attnscope exercise %1").arg(
                QString::fromStdString(exercise.name))));
            if (exercise.name == "digits") {
                const DatasetConfig d = m_lab->datasetPanel()->config();
                const ModelConfig m = m_lab->trainingPanel()->modelConfig();
                const TrainingConfig t = m_lab->trainingPanel()->trainingConfig();
                QCOMPARE(d.words, DatasetConfig::digitWords());
                QCOMPARE(d.minLength, 3);
                QCOMPARE(d.maxLength, 5);
                QCOMPARE(d.trainSize, 200);
                QCOMPARE(d.testSize, 1000);
                QCOMPARE(m.embedSize, 16);
                QCOMPARE(m.hiddenSize, 32);
                QCOMPARE(m.cell, RecurrentCell::Rnn);
                QCOMPARE(m.layers, 1);
                QVERIFY(!m.bidirectional);
                QCOMPARE(m.attention, AttentionKind::BahdanauAfter);
                QCOMPARE(t.optimizer, OptimizerKind::Sgd);
                QCOMPARE(t.momentum, 0.0);
                QCOMPARE(t.learningRate, 0.01);
                QCOMPARE(t.batchSize, 1);
                QCOMPARE(t.epochs, 100);
                QCOMPARE(t.clipNorm, 0.0);
                QCOMPARE(t.learningRateEpochDecay, 1.0);
            } else if (exercise.name == "lstm-seq2seq") {
                QCOMPARE(m_lab->trainingPanel()->modelConfig().cell, RecurrentCell::Lstm);
                QVERIFY(m_lab->trainingPanel()->modelConfig().bridge);
                QCOMPARE(m_lab->trainingPanel()->trainingConfig().epochs, 3);
            } else if (exercise.name == "skipgram") {
                const CorpusPanel *panel = m_window->lab<Word2VecLab>()->corpusPanel();
                const Word2VecConfig w = panel->config();
                QVERIFY(panel->corpusConfig().punctuation);
                QCOMPARE(w.architecture, Word2VecArchitecture::SkipGram);
                QCOMPARE(w.window, 2);
                QVERIFY(w.wholeWindow);
                QCOMPARE(w.dimensions, 16);
                QCOMPARE(w.negatives, 5);
                QCOMPARE(w.noiseExponent, 0.0);
                QCOMPARE(w.alpha, 0.05);
                QVERIFY(w.constantRate);
                QCOMPARE(w.epochs, 50);
                QCOMPARE(w.initStd, 0.1);
                QTRY_VERIFY(panel->corpus());
                QCOMPARE(panel->corpus()->lines(), 8);
                QVERIFY(panel->corpus()->index(".") >= 0);  // the full stop a word of its own
                QVERIFY(panel->corpus()->index("princess") >= 0);
            } else if (exercise.name == "char-rnn") {
                const CharTextPanel *panel = m_window->lab<CharLmLab>()->textPanel();
                const CharModelConfig m = panel->modelConfig();
                const CharTrainingConfig t = panel->trainingConfig();
                QCOMPARE(m.cell, RecurrentCell::Rnn);
                QCOMPARE(m.embed, 0);  // one-hot
                QCOMPARE(m.hidden, 64);
                QCOMPARE(m.layers, 1);
                QVERIFY(t.wholeText);
                QCOMPARE(t.optimizer, CharOptimizer::Sgd);
                QCOMPARE(t.momentum, 0.0);
                QCOMPARE(t.lr, 0.01);
                QCOMPARE(t.epochs, 500);
                QCOMPARE(t.clip, 0.0);
                QCOMPARE(panel->source(), CharTextPanel::Source::Typed);
                QTRY_VERIFY(panel->text());
                QCOMPARE(QString::fromStdU32String(panel->text()->text),
                         QStringLiteral("hello world, this is a tiny character model"));
            } else if (exercise.name == "self-attention") {
                const SelfAttentionControls *c = m_window->lab<SelfAttentionLab>()->panel()->controls();
                QCOMPARE(c->sentence(), QStringLiteral("I love AI"));
                QCOMPARE(c->source(), SelfAttentionControls::Source::Random);
                QCOMPARE(c->dModel(), 4);
                QCOMPARE(c->dK(), 3);
                QCOMPARE(c->seed(), 1);
                QVERIFY(!c->positions());
                QVERIFY(c->predictFirst());
            } else if (exercise.name == "assignment") {
                QCOMPARE(m_lab->trainingPanel()->modelConfig().cell, RecurrentCell::Gru);
                QCOMPARE(m_lab->trainingPanel()->modelConfig().hiddenSize, ModelConfig().hiddenSize);
                QCOMPARE(m_lab->trainingPanel()->trainingConfig().optimizer, OptimizerKind::Adam);
                QCOMPARE(m_lab->datasetPanel()->config().words, DatasetConfig().words);
            }
        }
    QCOMPARE(listed, 8);  // the course's, as issue 35 lists them
    QCOMPARE(int(entries.size()), listed);

    // The start page lists them too, and a click opens the exercise as the menu does.
    const auto buttons = m_window->startPage()->findChildren<QToolButton *>(QRegularExpression("^startExercise_"));
    QCOMPARE(int(buttons.size()), listed);
    m_window->showLab(nullptr);
    QToolButton *digits = nullptr;
    for (QToolButton *button : buttons)
        if (button->text().contains(QStringLiteral("digits")))
            digits = button;
    QVERIFY(digits);
    m_lab->trainingPanel()->setModelConfig(ModelConfig());
    QTest::mouseClick(digits, Qt::LeftButton);
    QCOMPARE(m_window->shownLab(), static_cast<Lab *>(m_lab));
    QCOMPARE(m_lab->trainingPanel()->modelConfig().cell, RecurrentCell::Rnn);
}

// The exercises set their settings on the labs' Setup docks: each is there to see and change.
void TestCourseExercises::everySettingHasARowOnItsSetupDock()
{
    verifyRows(m_lab->datasetPanel(), datasetConfigFields());
    verifyRows(m_lab->trainingPanel(), modelConfigFields());
    verifyRows(m_lab->trainingPanel(), trainingConfigFields());
    verifyRows(m_window->lab<Word2VecLab>()->corpusPanel(), corpusFields());
    verifyRows(m_window->lab<Word2VecLab>()->corpusPanel(), word2vecFields());
    verifyRows(m_window->lab<CharLmLab>()->textPanel(), charModelFields());
    verifyRows(m_window->lab<CharLmLab>()->textPanel(), charTrainingFields());
}

void TestCourseExercises::openExercise(const std::string &name)
{
    const QList<QAction *> entries = m_window->exercisesMenu()->actions();
    int listed = 0;
    for (const LabModule &module : labModules())
        for (const Exercise &exercise : module.exercises) {
            if (exercise.name == name)
                entries.at(listed)->trigger();
            ++listed;
        }
}

bool TestCourseExercises::trainAndAnswer()
{
    QSignalSpy answered(m_window->exerciseGuide(), &ExerciseGuide::answered);
    m_window->trainAction()->trigger();
    return answered.wait(120000) && m_window->runState()->isQuiet();
}

// The digits exercise trained as set, then with Adam: after each run the guide answers from the
// model in front of the student, and the second run's column stands beside the first.
void TestCourseExercises::digitsAnswersSgdAndAdamSideBySide()
{
    TrainingController controller(m_window);
    openExercise("digits");
    TrainingConfig t = m_lab->trainingPanel()->trainingConfig();
    t.epochs = 20;  // the first printed epoch, in seconds
    m_lab->trainingPanel()->setTrainingConfig(t);
    QVERIFY(trainAndAnswer());
    QString guide = m_window->guidePane()->guide();
    QVERIFY(guide.contains(QStringLiteral("## Your run")));
    const auto exactMatch = [this] {
        return QStringLiteral("%1% of %2")
            .arg(100 * m_lab->testReport()->exactMatch, 0, 'f', 1)
            .arg(QLocale().toString(1000));
    };
    const auto lossAt20 = [this] { return QString::number(m_lab->bestModel()->history.at(19).trainLoss, 'g', 3); };
    const ModelSnapshot sgd = m_lab->bestModel();
    QCOMPARE(sgd->history.size(), std::size_t(20));
    const QString sgdExact = exactMatch(), sgdLoss = lossAt20();
    QVERIFY(guide.contains(QStringLiteral("| | run 1 (this one) |\n")));
    QVERIFY(guide.contains(QStringLiteral("| settings | plain SGD at 0.01, no clipping, 20 epochs |\n")));
    QVERIFY(guide.contains(QStringLiteral("| test exact match | %1 |\n").arg(sgdExact)));
    QVERIFY(guide.contains(QStringLiteral("| loss, epoch 20 | %1 |\n").arg(sgdLoss)));
    const QString reversed = QString::fromStdString(sgd->decode({"3", "1", "4", "1", "5"}).text());
    QVERIFY(guide.contains(QStringLiteral("reverses 3 1 4 1 5 as **%1**").arg(reversed)));
    QCOMPARE(m_lab->inferencePanel()->text(), QStringLiteral("3 1 4 1 5"));  // its heatmap on the Reverse page
    const QScrollBar *scroll = m_window->guidePane()->view()->verticalScrollBar();
    QVERIFY(scroll->maximum() == 0 || scroll->value() > 0);  // the answers brought into view

    t.optimizer = OptimizerKind::Adam;
    t.learningRate = 0.002;
    t.clipNorm = 1;
    m_lab->trainingPanel()->setTrainingConfig(t);
    QVERIFY(trainAndAnswer());
    guide = m_window->guidePane()->guide();
    QVERIFY(m_lab->bestModel() != sgd);
    QVERIFY(guide.contains(QStringLiteral("| | run 1 | run 2 (this one) |\n")));
    QVERIFY(guide.contains(QStringLiteral("| settings | plain SGD at 0.01, no clipping, 20 epochs | Adam at 0.002, "
                                          "clipped at 1, 20 epochs |")));
    QVERIFY(guide.contains(QStringLiteral("| test exact match | %1 | %2 |\n").arg(sgdExact, exactMatch())));
    QVERIFY(guide.contains(QStringLiteral("| loss, epoch 20 | %1 | %2 |\n").arg(sgdLoss, lossAt20())));

    // Opened again from the menu, the exercise keeps its answers; another exercise has none yet.
    m_window->showLab(nullptr);
    openExercise("digits");
    QCOMPARE(m_window->guidePane()->guide(), guide);
    openExercise("lstm-seq2seq");
    QVERIFY(!m_window->guidePane()->guide().contains(QStringLiteral("## Your run")));
}

// The character RNN and skip-gram exercises answer from their labs' runs: the loss at the steps
// and epochs the exercise prints, the sample, the neighbours.
void TestCourseExercises::charRnnAndSkipGramAnswerAfterTraining()
{
    TrainingController controller(m_window);
    openExercise("char-rnn");
    auto *charLm = m_window->lab<CharLmLab>();
    CharTrainingConfig t = charLm->textPanel()->trainingConfig();
    t.epochs = 200;
    charLm->textPanel()->setConfigs(charLm->textPanel()->modelConfig(), t);
    QVERIFY(trainAndAnswer());
    QString guide = m_window->guidePane()->guide();
    QCOMPARE(charLm->history().size(), std::size_t(200));
    for (int step : {100, 200})
        QVERIFY(guide.contains(QStringLiteral("| %1 | %2 |")
                                   .arg(step)
                                   .arg(charLm->history()[std::size_t(step - 1)].trainBitsPerChar, 0, 'f', 3)));
    QVERIFY(!guide.contains(QStringLiteral("| 50 |")));
    QVERIFY(guide.contains(QStringLiteral("**60 characters from the first letter** (temperature 0.8): `h")));

    openExercise("skipgram");
    auto *w2v = m_window->lab<Word2VecLab>();
    QTRY_VERIFY(w2v->corpusPanel()->corpus());
    QVERIFY(trainAndAnswer());
    guide = m_window->guidePane()->guide();
    QCOMPARE(w2v->history().size(), std::size_t(50));
    for (int epoch : {10, 50})
        QVERIFY(guide.contains(
            QStringLiteral("| %1 | %2 |").arg(epoch).arg(w2v->history()[std::size_t(epoch - 1)].loss, 0, 'f', 3)));
    for (const char *word : {"king", "queen", "princess"})
        QVERIFY(guide.contains(QStringLiteral("- %1: ").arg(QLatin1String(word))));
}

// The variants exercise queues its four scores on the Experiments page and answers from the queue's
// runs; the beams exercise answers from the Beams page's comparison. Both on the digits task, small.
void TestCourseExercises::variantsAndBeamsAnswerFromTheirPages()
{
    TrainingController controller(m_window);
    openExercise("variants");
    ExperimentsPanel *experiments = m_lab->experimentsPanel();
    QCOMPARE(m_window->shownPage(), static_cast<QWidget *>(experiments));
    QCOMPARE(experiments->queuedCount(), 4);
    QCOMPARE(m_lab->trainingPanel()->modelConfig().hiddenSize, ModelConfig().hiddenSize);

    DatasetConfig digits = m_lab->datasetPanel()->config();
    digits.words = DatasetConfig::digitWords();
    digits.minLength = 3;
    digits.maxLength = 5;
    digits.trainSize = 200;
    digits.valSize = 50;
    digits.testSize = 100;
    m_lab->datasetPanel()->setConfig(digits);
    TrainingConfig t = m_lab->trainingPanel()->trainingConfig();
    t.epochs = 2;
    m_lab->trainingPanel()->setTrainingConfig(t);
    ModelConfig small = m_lab->trainingPanel()->modelConfig();
    small.embedSize = 8;
    small.hiddenSize = 16;
    experiments->clearQueue();
    for (AttentionKind kind : {AttentionKind::Bahdanau, AttentionKind::ScaledDot}) {
        small.attention = kind;
        experiments->addConfiguration(small);
    }
    QSignalSpy answered(m_window->exerciseGuide(), &ExerciseGuide::answered);
    experiments->findChild<QPushButton *>(QStringLiteral("runQueueButton"))->click();
    QVERIFY(answered.wait(120000));
    QString guide = m_window->guidePane()->guide();
    QCOMPARE(int(experiments->records().size()), 2);
    const std::vector<ExperimentRecord> &runs = experiments->records();
    QVERIFY(guide.contains(QStringLiteral("| | run 1 | run 2 |\n")));
    QVERIFY(guide.contains(QStringLiteral("| variant | %1 | %2 |\n")
                               .arg(QString::fromStdString(runs[0].label), QString::fromStdString(runs[1].label))));
    QVERIFY(guide.contains(QStringLiteral("| test exact match | %1% | %2% |\n")
                               .arg(100 * runs[0].testExactMatch, 0, 'f', 1)
                               .arg(100 * runs[1].testExactMatch, 0, 'f', 1)));

    // The model the queue's last run left is not the lab's: train one, then compare its decodings.
    m_window->trainAction()->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(m_window->runState()->isQuiet() && m_lab->bestModel(), 60000);
    openExercise("beams");
    BeamSearchPage *beams = m_lab->beamSearchPage();
    QCOMPARE(m_window->shownPage(), static_cast<QWidget *>(beams));
    QVERIFY(m_window->guidePane()->guide().endsWith(QStringLiteral("`attnscope exercise beams --out DIR`.")));
    QTRY_VERIFY(beams->compareButton()->isEnabled());
    beams->compareButton()->click();
    QVERIFY(answered.wait(120000));
    guide = m_window->guidePane()->guide();
    QVERIFY(beams->hasEvaluation());
    const BeamSettingScore &greedy = beams->evaluation().scores.front();
    QCOMPARE(greedy.setting.width, 1);
    const QString sentences = QLocale().toString(beams->evaluation().sentences);
    QVERIFY(guide.contains(QStringLiteral("On %1 test sentences:").arg(sentences)));
    QVERIFY(guide.contains(
        QStringLiteral("- greedy decoding: %1% exact match").arg(100 * greedy.exactMatch, 0, 'f', 1)));
    int differing = 0;
    for (const BeamSettingScore &s : beams->evaluation().scores)
        differing += s.differFromGreedy;
    const QString answers = guide.mid(guide.indexOf(QStringLiteral("## Your run")));  // the question quotes a run
    QCOMPARE(answers.contains(QStringLiteral("every setting gave greedy's output")), differing == 0);
}

ATTNSCOPE_TEST(courseexercises, TestCourseExercises)
#include "tst_courseexercises.moc"
