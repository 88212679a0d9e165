#include "tests/common/testregistry.h"
#include "app/workbench/labmodule.h"
#include "tests/common/workbenchfixture.h"
#include "ui/attention/attentionlab.h"
#include "ui/attention/datasetpanel.h"
#include "ui/attention/trainingpanel.h"
#include "ui/core/guidepane.h"
#include "ui/workbench/mainwindow.h"
#include "ui/workbench/startpage.h"

#include <QMenu>
#include <QRegularExpression>
#include <QTest>
#include <QToolButton>

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

private:
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

ATTNSCOPE_TEST(courseexercises, TestCourseExercises)
#include "tst_courseexercises.moc"
