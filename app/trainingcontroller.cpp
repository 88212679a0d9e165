#include "app/trainingcontroller.h"

#include "app/trainingworker.h"
#include "ui/attention/experimentspanel.h"
#include "ui/mainwindow.h"

#include "engine/fast/helperthread.h"

#include <algorithm>

#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace {

// Training and evaluation keep both cores busy; at the same priority the GUI thread got a third of
// a core, and the window's work at the end of an epoch (new weights decoded, plots redrawn)
// stalled the event loop 68-82 ms in 2 of 4 runs. Ten nice levels lower (at most 19), the
// training threads leave the GUI thread ~90% of a core whenever it has work. Linux keeps a nice
// value per thread, and threads started from this one (the batch shards) inherit it.
void lowerThisThreadsPriority()
{
#ifdef __linux__
    const id_t thread = id_t(syscall(SYS_gettid));
    setpriority(PRIO_PROCESS, thread, std::min(getpriority(PRIO_PROCESS, thread) + 10, 19));
#endif
}

}

TrainingController::TrainingController(MainWindow *window, QObject *parent)
    : QObject(parent), m_worker(new TrainingWorker)
{
    registerMetaTypes();
    m_thread.setObjectName(QStringLiteral("training"));
    m_worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);

    // Requests: start and evaluate queue work on the worker's thread; pause, resume and stop must
    // reach a worker busy in its training loop, so they are called directly (they are thread-safe).
    TrainingWorker *worker = m_worker;
    connect(window, &MainWindow::trainRequested, worker, &TrainingWorker::start, Qt::DirectConnection);
    connect(window, &MainWindow::evaluationRequested, worker, &TrainingWorker::startEvaluation,
            Qt::DirectConnection);
    connect(window, &MainWindow::pauseRequested, worker, &TrainingWorker::pause, Qt::DirectConnection);
    connect(window, &MainWindow::resumeRequested, worker, &TrainingWorker::resume, Qt::DirectConnection);
    connect(window, &MainWindow::stopRequested, worker, &TrainingWorker::requestStop, Qt::DirectConnection);
    connect(window, &MainWindow::experimentsRequested, worker, &TrainingWorker::startExperiments,
            Qt::DirectConnection);
    connect(window, &MainWindow::closed, this, &TrainingController::shutdown);

    // Reports: queued to the window's thread as plain values.
    connect(worker, &TrainingWorker::started, window, &MainWindow::trainingStarted);
    connect(worker, &TrainingWorker::batchProgress, window, &MainWindow::showBatch);
    connect(worker, &TrainingWorker::pausedChanged, window, &MainWindow::setPaused);
    connect(worker, &TrainingWorker::epochFinished, window, &MainWindow::addEpoch);
    connect(worker, &TrainingWorker::trainingFinished, window, &MainWindow::finishTraining);
    connect(worker, &TrainingWorker::evaluationStarted, window, &MainWindow::evaluationStarted);
    connect(worker, &TrainingWorker::evaluated, window, &MainWindow::showEvaluation);
    connect(worker, &TrainingWorker::evaluationFailed, window, &MainWindow::showEvaluationError);
    connect(worker, &TrainingWorker::failed, window, &MainWindow::showTrainingError);
    connect(worker, &TrainingWorker::idle, window, &MainWindow::workerIdle);
    ExperimentsPanel *experiments = window->experimentsPanel();
    connect(worker, &TrainingWorker::experimentStarted, experiments, &ExperimentsPanel::runStarted);
    connect(worker, &TrainingWorker::experimentEpoch, experiments, &ExperimentsPanel::addEpoch);
    connect(worker, &TrainingWorker::experimentFinished, experiments, &ExperimentsPanel::runFinished);
    connect(worker, &TrainingWorker::experimentsFinished, window, &MainWindow::finishExperiments);

    // The helper shares decodes with whichever thread asks, the GUI's included, so it must not
    // inherit the training thread's lower priority: created here, on the GUI thread.
    HelperThread::shared();
    connect(&m_thread, &QThread::started, m_worker, &lowerThisThreadsPriority);
    m_thread.start();
}

TrainingController::~TrainingController()
{
    shutdown();
}

void TrainingController::shutdown()
{
    if (!m_thread.isRunning())
        return;
    m_worker->requestCancel();
    m_thread.quit();
    m_thread.wait();
}
