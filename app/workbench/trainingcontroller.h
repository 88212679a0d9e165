#pragma once

#include "ui/workbench/jobrunner.h"
#include "ui/workbench/lab.h"

#include <QHash>
#include <QObject>
#include <QPointer>
#include <QThread>

class MainWindow;
class TrainingWorker;

// Owns the training thread and its worker, runs the window's jobs on it and hands each job's reports
// to the lab that submitted it. The thread ends when the window closes or this object is destroyed,
// whichever comes first: nothing outlives its owner.
class TrainingController : public QObject, public JobRunner
{
    Q_OBJECT
public:
    explicit TrainingController(MainWindow *window, QObject *parent = nullptr);
    ~TrainingController() override;

    void run(Lab *lab, LabJob job, bool newRun) override;

    // Cancels any work and waits for the thread to finish. Safe to call more than once.
    void shutdown();

    TrainingWorker *worker() const { return m_worker; }
    bool isRunning() const { return m_thread.isRunning(); }

private:
    Lab *labOf(quint64 job) const { return m_labs.value(job); }

    QPointer<MainWindow> m_window;
    QThread m_thread;
    TrainingWorker *m_worker;  // lives on m_thread, deleted when it finishes
    QHash<quint64, QPointer<Lab>> m_labs;  // the lab of each job not yet done
};
