#pragma once

#include "ui/workbench/jobcontext.h"

#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QVariant>

#include <atomic>
#include <condition_variable>
#include <mutex>

struct BatchProgress;

// Runs the labs' jobs one after another on the thread it is moved to. Every report names the job
// it comes from (the number submit() returned), so that it reaches only the lab that asked for it.
// Stop, cancel, pause and resume are thread-safe and take effect at the job's next batch.
class TrainingWorker : public QObject
{
    Q_OBJECT
public:
    // Batch reports are merged so the GUI sees at most this many per second.
    static constexpr int kMaxBatchReportsPerSecond = 20;

    explicit TrainingWorker(QObject *parent = nullptr);

    // Queues `job` on the worker's thread and returns its number. A new run clears an earlier Stop
    // and Pause first, here on the caller's thread, so a Stop pressed right after starting is never
    // lost; work queued behind a run (scoring a model) leaves them as they are. A cancel is for good.
    quint64 submit(LabJob job, bool newRun = true);

    void requestStop();    // the job's training ends; what follows it (scoring the result) still runs
    void requestCancel();  // the job ends and nothing else runs: the application is closing
    void pause();
    void resume();
    bool isPaused() const;

signals:
    void started(quint64 job, int epochs, const QString &unit, const QString &description);
    // `loss` is the mean over the batches merged into this report.
    void batchProgress(quint64 job, const BatchProgress &progress);
    void pausedChanged(bool paused);
    void reported(quint64 job, const QVariant &result);  // a lab's own result type
    void failed(quint64 job, const QString &message);
    void idle(quint64 job);  // the job is done, successfully or not

private:
    class Context;
    void run(quint64 job, const LabJob &work);
    void reportBatch(quint64 job, const BatchProgress &progress);
    void waitWhilePaused();

    std::atomic<quint64> m_lastJob{0};
    std::atomic<bool> m_stop{false};
    std::atomic<bool> m_cancel{false};
    mutable std::mutex m_pauseMutex;
    std::condition_variable m_pauseChanged;
    bool m_paused = false;

    QElapsedTimer m_sinceReport;
    double m_lossSum = 0;
    int m_lossCount = 0;
};
