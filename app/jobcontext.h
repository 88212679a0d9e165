#pragma once

#include <QString>
#include <QVariant>

#include <atomic>
#include <functional>

class TrainingWorker;
struct BatchProgress;

// What a lab's job sees while it runs on the worker's thread: the stop flag to hand to the engine,
// and the ways to report back, which reach the GUI thread as the worker's signals.
class JobContext
{
public:
    explicit JobContext(TrainingWorker &worker) : m_worker(worker) {}

    const std::atomic<bool> *stopFlag() const;  // set by Stop; checked by the engine every batch
    bool cancelled() const;                      // the application is closing: report nothing more

    // A training run begins: `epochs`, its rate counted in `unit` per second, a line describing it.
    void started(int epochs, const QString &unit, const QString &description);
    // One batch: merged with others so the GUI sees at most 20 reports a second; returns when the
    // user is not (or no longer) pausing.
    void batch(const BatchProgress &progress);
    // A lab's own result (an epoch's snapshot, an evaluation), delivered as it is.
    template <typename T>
    void report(const T &value)
    {
        reportValue(QVariant::fromValue(value));
    }

private:
    void reportValue(const QVariant &value);

    TrainingWorker &m_worker;
};

// A piece of a lab's work, run on the worker's thread. An exception it throws ends it and is
// reported as the worker's failed().
using LabJob = std::function<void(JobContext &)>;
