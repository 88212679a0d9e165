#pragma once

#include "app/jobcontext.h"
#include "engine/core/epochstats.h"

#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QVariant>

#include <atomic>
#include <condition_variable>
#include <mutex>

// Runs the labs' jobs one after another on the thread it is moved to, and reports back through
// queued signals that are the same for every lab. Stop, cancel, pause and resume are thread-safe
// and take effect at the job's next batch.
class TrainingWorker : public QObject
{
    Q_OBJECT
public:
    // Batch reports are merged so the GUI sees at most this many per second.
    static constexpr int kMaxBatchReportsPerSecond = 20;

    explicit TrainingWorker(QObject *parent = nullptr);

    // Queues `job` on the worker's thread. A new run clears an earlier Stop and Pause first, here
    // on the caller's thread, so a Stop pressed right after starting is never lost; work queued
    // behind a run (scoring a model) leaves them as they are. A cancel is for good.
    void submit(LabJob job, bool newRun = true);

    void requestStop();    // the job's training ends; what follows it (scoring the result) still runs
    void requestCancel();  // the job ends and nothing else runs: the application is closing
    void pause();
    void resume();
    bool isPaused() const;

signals:
    void started(int epochs, const QString &unit, const QString &description);
    // `loss` is the mean over the batches merged into this report.
    void batchProgress(const BatchProgress &progress);
    void pausedChanged(bool paused);
    void reported(const QVariant &result);  // a lab's own result type
    void failed(const QString &message);
    void idle();  // the job is done, successfully or not

private:
    friend class JobContext;
    void run(const LabJob &job);
    void reportBatch(const BatchProgress &progress);
    void waitWhilePaused();

    std::atomic<bool> m_stop{false};
    std::atomic<bool> m_cancel{false};
    mutable std::mutex m_pauseMutex;
    std::condition_variable m_pauseChanged;
    bool m_paused = false;

    QElapsedTimer m_sinceReport;
    double m_lossSum = 0;
    int m_lossCount = 0;
};
