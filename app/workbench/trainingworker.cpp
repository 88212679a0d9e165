#include "app/workbench/trainingworker.h"

#include "engine/core/epochstats.h"

#include <QCoreApplication>
#include <QEvent>
#include <QSemaphore>

#include <exception>
#include <memory>

namespace {

// Releases `done` on the GUI thread once the events queued there before it have been handled, and
// those they queued in turn: the lab's handler, then the replots it asked for, then their paints.
// Each hop is posted at low priority, behind every normal event, as Qt posts paints.
class WindowDrained : public QObject
{
public:
    explicit WindowDrained(std::shared_ptr<QSemaphore> done) : m_done(std::move(done))
    {
        moveToThread(QCoreApplication::instance()->thread());
    }
    void start() { QCoreApplication::postEvent(this, new QEvent(QEvent::User), Qt::LowEventPriority); }

protected:
    bool event(QEvent *event) override
    {
        if (event->type() != QEvent::User)
            return QObject::event(event);
        if (--m_hops > 0) {
            start();
        } else {
            m_done->release();
            deleteLater();
        }
        return true;
    }

private:
    std::shared_ptr<QSemaphore> m_done;
    int m_hops = 3;  // report handled, replots done, paints done
};

}

// The JobContext of one job: its reports carry the job's number.
class TrainingWorker::Context : public JobContext
{
public:
    Context(TrainingWorker &worker, quint64 job) : m_worker(worker), m_job(job) {}

    const std::atomic<bool> *stopFlag() const override { return &m_worker.m_stop; }
    bool cancelled() const override { return m_worker.m_cancel; }

    void started(int epochs, const QString &unit, const QString &description) override
    {
        m_worker.m_sinceReport.start();
        emit m_worker.started(m_job, epochs, unit, description);
    }

    void batch(const BatchProgress &progress) override
    {
        m_worker.reportBatch(m_job, progress);
        m_worker.waitWhilePaused();
    }

protected:
    void reportValue(const QVariant &value) override
    {
        if (!m_worker.m_cancel)
            emit m_worker.reported(m_job, value);
    }

    void reportValueAndWait(const QVariant &value) override
    {
        if (m_worker.m_cancel)
            return;
        auto drawn = std::make_shared<QSemaphore>();
        emit m_worker.reported(m_job, value);
        (new WindowDrained(drawn))->start();
        drawn->tryAcquire(1, kMaxWaitForWindowMs);
    }

private:
    TrainingWorker &m_worker;
    quint64 m_job;
};

TrainingWorker::TrainingWorker(QObject *parent) : QObject(parent)
{
    qRegisterMetaType<BatchProgress>();
}

quint64 TrainingWorker::submit(LabJob job, bool newRun)
{
    if (newRun) {
        m_stop = m_cancel.load();
        std::lock_guard<std::mutex> lock(m_pauseMutex);
        m_paused = false;
    }
    const quint64 number = ++m_lastJob;
    QMetaObject::invokeMethod(this, [this, number, job = std::move(job)] { run(number, job); }, Qt::QueuedConnection);
    return number;
}

void TrainingWorker::run(quint64 job, const LabJob &work)
{
    m_lossSum = 0;
    m_lossCount = 0;
    if (!m_cancel) {
        try {
            Context context(*this, job);
            work(context);
        } catch (const std::exception &error) {
            if (!m_cancel)
                emit failed(job, QString::fromStdString(error.what()));
        }
    }
    emit idle(job);
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

void TrainingWorker::reportBatch(quint64 job, const BatchProgress &progress)
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
    emit batchProgress(job, merged);
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
