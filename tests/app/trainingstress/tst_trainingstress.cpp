#include "tests/common/testregistry.h"
#include "ui/attention/attentionjobs.h"
#include "app/workbench/trainingcontroller.h"
#include "app/workbench/trainingworker.h"
#include "tests/common/messageboxanswerer.h"
#include "tests/common/tinymodel.h"
#include "ui/attention/attentionlab.h"
#include "ui/attention/datasetpanel.h"
#include "ui/attention/trainingpanel.h"
#include "app/workbench/labmodule.h"
#include "ui/workbench/mainwindow.h"

#include <QAction>
#include <QDir>
#include <QSettings>
#include <QStandardPaths>
#include <QTest>
#include <QThread>

#include <random>

namespace {

constexpr int kCycles = 100;
// Threads that libraries may start lazily after the first cycle (torch's and Qt's pools; seen: one
// more under a loaded machine). A thread leaked per cycle would add ~kCycles.
constexpr int kLazyThreads = 4;

int threadCount()
{
    return int(QDir(QStringLiteral("/proc/self/task")).entryList(QDir::Dirs | QDir::NoDotAndDotDot).size());
}

}

// Stop, Pause, Resume and closing the window at random moments, many times over: every cycle must
// end with the training thread finished and nothing crashing, and no thread may be left behind.
// The moments are random, the checks are not: none depends on how long anything took.
class TestTrainingStress : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void workerEndsCleanlyWhateverTheControl();
    void windowClosesCleanlyWhateverTheControl();

private:
    std::mt19937 m_rng{20240611};
    int pick(int low, int high) { return std::uniform_int_distribution<int>(low, high)(m_rng); }
};

void TestTrainingStress::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("AttnScopeTest"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_trainingstress"));
    QSettings().clear();
}

void TestTrainingStress::workerEndsCleanlyWhateverTheControl()
{
    int baseline = 0;
    int stoppedAndEvaluated = 0;
    for (int cycle = 0; cycle < kCycles; ++cycle) {
        int idle = 0;
        int outcomes = 0;
        QThread thread;
        auto *worker = new TrainingWorker;
        worker->moveToThread(&thread);
        connect(&thread, &QThread::finished, worker, &QObject::deleteLater);
        // Destroyed first at the end of the cycle, taking any report still queued for it along.
        QObject receiver;
        connect(worker, &TrainingWorker::idle, &receiver, [&](quint64) { ++idle; });
        connect(worker, &TrainingWorker::reported, &receiver, [&](quint64, const QVariant &result) {
            outcomes += result.metaType() == QMetaType::fromType<TrainingFinished>();
        });
        thread.start();
        worker->submit(attentionTrainingJob(quickDataset(), quickModelConfig(), quickTraining(1000)));

        for (int action = pick(0, 4); action > 0; --action) {
            QTest::qWait(pick(0, 30));
            switch (pick(0, 2)) {
            case 0: worker->pause(); break;
            case 1: worker->resume(); break;
            default: worker->requestStop(); break;
            }
        }
        if (pick(0, 1) == 0) {
            // Stop: training ends, the best model so far is evaluated, the worker goes idle.
            worker->requestStop();
            QTRY_COMPARE_WITH_TIMEOUT(idle, 1, 60000);
            QVERIFY(outcomes <= 1);
            stoppedAndEvaluated += outcomes;
        }
        // What the controller does when the window closes.
        worker->requestCancel();
        thread.quit();
        QVERIFY2(thread.wait(60000), qPrintable(QStringLiteral("cycle %1 did not end").arg(cycle)));
        if (cycle == 0)
            baseline = threadCount();  // after torch has started whatever it keeps
    }
    QVERIFY2(threadCount() <= baseline + kLazyThreads, qPrintable(QStringLiteral("%1 threads, %2 after the first cycle")
                                                       .arg(threadCount())
                                                       .arg(baseline)));
    qInfo("%d of %d cycles were stopped with a finished outcome", stoppedAndEvaluated, kCycles);
}

void TestTrainingStress::windowClosesCleanlyWhateverTheControl()
{
    int baseline = 0;
    for (int cycle = 0; cycle < kCycles; ++cycle) {
        auto *window = new MainWindow;
        addRegisteredLabs(window);
        auto *controller = new TrainingController(window);
        auto *lab = window->lab<AttentionLab>();
        window->showLab(lab);
        lab->datasetPanel()->setConfig(quickDataset());
        lab->trainingPanel()->setModelConfig(quickModelConfig());
        lab->trainingPanel()->setTrainingConfig(quickTraining(1000));
        window->train();
        QVERIFY(window->runState()->isTraining());

        for (int action = pick(0, 5); action > 0; --action) {
            QTest::qWait(pick(0, 40));
            // Only what a user could click: actions that are enabled.
            QAction *chosen = std::vector<QAction *>{window->pauseAction(), window->resumeAction(),
                                                     window->stopAction(), window->trainAction()}[std::size_t(pick(0, 3))];
            if (chosen->isEnabled())
                chosen->trigger();
        }
        // Closing asks about an unsaved model once an epoch has finished; the answer is Discard.
        MessageBoxAnswerer answerer(QMessageBox::Discard);
        QVERIFY(window->close());
        QVERIFY2(!controller->isRunning(), qPrintable(QStringLiteral("cycle %1: thread still running").arg(cycle)));
        delete controller;
        delete window;
        if (cycle == 0)
            baseline = threadCount();
    }
    QVERIFY2(threadCount() <= baseline + kLazyThreads, qPrintable(QStringLiteral("%1 threads, %2 after the first cycle")
                                                       .arg(threadCount())
                                                       .arg(baseline)));
}

ATTNSCOPE_TEST(trainingstress, TestTrainingStress)
#include "tst_trainingstress.moc"
