#pragma once

#include <QObject>

class Lab;

// What the worker is doing for the window: one piece of work at a time, started by one lab. The
// window's Pause/Resume/Stop, its status bar and each lab's enabled widgets follow it.
class RunState : public QObject
{
    Q_OBJECT
public:
    enum class Phase { Idle, Training, Paused, Stopping, Evaluating, Comparing };

    using QObject::QObject;

    Phase phase() const { return m_phase; }
    bool isTraining() const;  // Training, Paused or Stopping
    // Idle and nothing asked of the worker that it has not answered yet.
    bool isQuiet() const { return m_phase == Phase::Idle && m_pending == 0; }
    Lab *owner() const { return m_owner; }  // the lab whose work runs, or null when idle

    // A lab hands the worker a job: the phase it enters (Idle for background work such as scoring
    // an opened model), answered later by one workerIdle().
    void submitted(Lab *owner, Phase phase);
    void setPhase(Phase phase);
    void workerIdle();

signals:
    void changed();
    void trainingStarted();  // a lab submitted a training run

private:
    Phase m_phase = Phase::Idle;
    int m_pending = 0;
    Lab *m_owner = nullptr;
};
