#include "app/trainingworker.h"

#include <exception>

const std::atomic<bool> *JobContext::stopFlag() const
{
    return &m_worker.m_stop;
}

bool JobContext::cancelled() const
{
    return m_worker.m_cancel;
}

void JobContext::started(int epochs, const QString &unit, const QString &description)
{
    m_worker.m_sinceReport.start();
    emit m_worker.started(epochs, unit, description);
}

void JobContext::batch(const BatchProgress &progress)
{
    m_worker.reportBatch(progress);
    m_worker.waitWhilePaused();
}

void JobContext::reportValue(const QVariant &value)
{
    if (!m_worker.m_cancel)
        emit m_worker.reported(value);
}

TrainingWorker::TrainingWorker(QObject *parent) : QObject(parent)
{
    qRegisterMetaType<BatchProgress>();
}

void TrainingWorker::submit(LabJob job, bool newRun)
{
    if (newRun) {
        m_stop = m_cancel.load();
        std::lock_guard<std::mutex> lock(m_pauseMutex);
        m_paused = false;
    }
    QMetaObject::invokeMethod(this, [this, job = std::move(job)] { run(job); }, Qt::QueuedConnection);
}

void TrainingWorker::run(const LabJob &job)
{
    m_lossSum = 0;
    m_lossCount = 0;
    if (!m_cancel) {
        try {
            JobContext context(*this);
            job(context);
        } catch (const std::exception &error) {
            if (!m_cancel)
                emit failed(QString::fromStdString(error.what()));
        }
    }
    emit idle();
}

void TrainingWorker::requestStop()
{
    m_stop = true;
    std::lock_guard<std::mutex> lock(m_pauseMutex);
    m_pauseChanged.notify_all();
}

void TrainingWorker::requestCancel()
{
    m_cancel = true;
    requestStop();
}

void TrainingWorker::pause()
{
    std::lock_guard<std::mutex> lock(m_pauseMutex);
    m_paused = true;
}

void TrainingWorker::resume()
{
    std::lock_guard<std::mutex> lock(m_pauseMutex);
    m_paused = false;
    m_pauseChanged.notify_all();
}

bool TrainingWorker::isPaused() const
{
    std::lock_guard<std::mutex> lock(m_pauseMutex);
    return m_paused;
}

void TrainingWorker::reportBatch(const BatchProgress &progress)
{
    m_lossSum += progress.loss;
    ++m_lossCount;
    const bool lastOfEpoch = progress.batch == progress.batchesPerEpoch;
    if (!lastOfEpoch && m_sinceReport.isValid() && m_sinceReport.elapsed() < 1000 / kMaxBatchReportsPerSecond)
        return;
    BatchProgress merged = progress;
    merged.loss = m_lossSum / m_lossCount;
    m_lossSum = 0;
    m_lossCount = 0;
    m_sinceReport.restart();
    emit batchProgress(merged);
}

void TrainingWorker::waitWhilePaused()
{
    std::unique_lock<std::mutex> lock(m_pauseMutex);
    if (!m_paused || m_stop)
        return;
    emit pausedChanged(true);
    m_pauseChanged.wait(lock, [this] { return !m_paused || m_stop; });
    emit pausedChanged(false);
}
