#pragma once

#include "app/workbench.h"

#include <QObject>
#include <QThread>

class MainWindow;
class TrainingWorker;

// Owns the training thread and its worker and wires them to a window and its labs. The thread ends
// when the window closes or this object is destroyed, whichever comes first: nothing outlives
// its owner.
class TrainingController : public QObject
{
    Q_OBJECT
public:
    TrainingController(MainWindow *window, const Labs &labs, QObject *parent = nullptr);
    ~TrainingController() override;

    // Cancels any work and waits for the thread to finish. Safe to call more than once.
    void shutdown();

    TrainingWorker *worker() const { return m_worker; }
    bool isRunning() const { return m_thread.isRunning(); }

private:
    QThread m_thread;
    TrainingWorker *m_worker;  // lives on m_thread, deleted when it finishes
};
