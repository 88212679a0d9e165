#pragma once

#include "engine/core/epochstats.h"

#include <QMetaType>
#include <QString>
#include <QVariant>

#include <atomic>
#include <functional>

// What a lab's job sees while it runs on the worker's thread: the stop flag to hand to the engine,
// and the ways to report back. Reports reach the lab that submitted the job, on the GUI thread.
class JobContext
{
public:
    virtual ~JobContext() = default;

    virtual const std::atomic<bool> *stopFlag() const = 0;  // set by Stop; checked by the engine every batch
    virtual bool cancelled() const = 0;  // the application is closing: report nothing more

    // A training run begins: `epochs`, its rate counted in `unit` per second, a line describing it.
    virtual void started(int epochs, const QString &unit, const QString &description) = 0;
    // One batch: merged with others so the GUI sees at most 20 reports a second; returns when the
    // user is not (or no longer) pausing.
    virtual void batch(const BatchProgress &progress) = 0;
    // A lab's own result (an epoch's snapshot, an evaluation), delivered to the handler the lab
    // registered for its type (Lab::onResult).
    template <typename T>
    void report(const T &value)
    {
        reportValue(QVariant::fromValue(value));
    }
    // The same, then the job waits until the window has handled the report and drawn what it
    // changed, or kMaxWaitForWindowMs: a large redraw (a new epoch's views) then has the cores to
    // itself instead of sharing them with training, so the window does not stall.
    static constexpr int kMaxWaitForWindowMs = 100;
    template <typename T>
    void reportAndWaitForWindow(const T &value)
    {
        reportValueAndWait(QVariant::fromValue(value));
    }

protected:
    virtual void reportValue(const QVariant &value) = 0;
    virtual void reportValueAndWait(const QVariant &value) = 0;
};

// A piece of a lab's work, run on the worker's thread. An exception it throws ends it and reaches
// the lab as Lab::jobFailed().
using LabJob = std::function<void(JobContext &)>;

Q_DECLARE_METATYPE(BatchProgress)
