#include "app/workbench/trainingcontroller.h"

#include "app/workbench/trainingworker.h"
#include "engine/fast/helperthread.h"
#include "ui/workbench/lab.h"
#include "ui/workbench/mainwindow.h"
#include "ui/workbench/runprogress.h"

#include <algorithm>

#ifdef __linux__
#include <sched.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace {

// Training and evaluation keep both cores busy; at the same priority the GUI thread got a third of
// a core, and the window's work at the end of an epoch (new weights decoded, plots redrawn)
// stalled the event loop. Ten nice levels lower the training threads left the GUI thread ~90% of a
// core, but a waking GUI thread could still wait for one; in the idle scheduling class they run
// only when no other thread wants the core, so the window (and the rest of the desktop) always
// comes first. The nice value stays for systems where the class cannot be set. Linux keeps both
// per thread, and threads started from this one (the batch shards) inherit them.
void lowerThisThreadsPriority()
{
#ifdef __linux__
    const id_t thread = id_t(syscall(SYS_gettid));
    setpriority(PRIO_PROCESS, thread, std::min(getpriority(PRIO_PROCESS, thread) + 10, 19));
    const sched_param noPriority{};
    sched_setscheduler(pid_t(thread), SCHED_IDLE, &noPriority);
#endif
}

}

TrainingController::TrainingController(MainWindow *window, QObject *parent)
    : QObject(parent), m_window(window), m_worker(new TrainingWorker)
{
    m_thread.setObjectName(QStringLiteral("training"));
    m_worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    window->setJobRunner(this);

    // Pause, resume and stop must reach a worker busy in its training loop, so they are called
    // directly (they are thread-safe). Reports are queued to the window's thread as plain values.
    TrainingWorker *worker = m_worker;
    connect(window, &MainWindow::pauseRequested, worker, &TrainingWorker::pause, Qt::DirectConnection);
    connect(window, &MainWindow::resumeRequested, worker, &TrainingWorker::resume, Qt::DirectConnection);
    connect(window, &MainWindow::stopRequested, worker, &TrainingWorker::requestStop, Qt::DirectConnection);
    connect(window, &MainWindow::closed, this, &TrainingController::shutdown);
    connect(worker, &TrainingWorker::pausedChanged, window, &MainWindow::setPaused);
    connect(worker, &TrainingWorker::started, this,
            [this, window](quint64 job, int epochs, const QString &unit, const QString &description) {
                window->runProgress()->setRun(epochs, unit);
                if (Lab *lab = labOf(job))
                    lab->jobStarted(description);
            });
    connect(worker, &TrainingWorker::batchProgress, this, [this, window](quint64 job, const BatchProgress &progress) {
        window->showBatch(progress);
        if (Lab *lab = labOf(job))
            lab->jobBatch(progress);
    });
    connect(worker, &TrainingWorker::reported, this, [this](quint64 job, const QVariant &result) {
        if (Lab *lab = labOf(job))
            lab->receiveResult(result);
    });
    connect(worker, &TrainingWorker::failed, this, [this](quint64 job, const QString &message) {
        if (Lab *lab = labOf(job))
            lab->jobFailed(message);
    });
    connect(worker, &TrainingWorker::idle, this, [this, window](quint64 job) {
        m_labs.remove(job);
        window->runState()->workerIdle();
    });

    // The helper shares decodes with whichever thread asks, the GUI's included, so it must not
    // inherit the training thread's lower priority: created here, on the GUI thread.
    HelperThread::shared();
    connect(&m_thread, &QThread::started, m_worker, &lowerThisThreadsPriority);
    m_thread.start();
}

TrainingController::~TrainingController()
{
    shutdown();
    if (m_window)
        m_window->setJobRunner(nullptr);
}

void TrainingController::run(Lab *lab, LabJob job, bool newRun)
{
    m_labs.insert(m_worker->submit(std::move(job), newRun), lab);
}

void TrainingController::shutdown()
{
    if (!m_thread.isRunning())
        return;
    m_worker->requestCancel();
    m_thread.quit();
    m_thread.wait();
}
