#include "app/workbench/trainingcontroller.h"

#include "app/workbench/trainingworker.h"
#include "ui/workbench/lab.h"
#include "ui/workbench/mainwindow.h"
#include "ui/workbench/runprogress.h"

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

    // The training threads keep the normal priority, a fair share of a busy machine: a lower one
    // starved them whenever other programs kept the cores busy. The window stays responsive because
    // a job waits for it after a report that redraws much (JobContext::reportAndWaitForWindow).
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
