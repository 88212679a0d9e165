#include "ui/workbench/runstate.h"

#include <algorithm>

bool RunState::isTraining() const
{
    return m_phase == Phase::Training || m_phase == Phase::Paused || m_phase == Phase::Stopping;
}

void RunState::submitted(Lab *owner, Phase phase)
{
    ++m_pending;
    m_owner = owner;
    if (phase != Phase::Idle)
        m_phase = phase;
    if (phase == Phase::Training)
        emit trainingStarted();
    emit changed();
}

void RunState::setPhase(Phase phase)
{
    m_phase = phase;
    emit changed();
}

void RunState::workerIdle()
{
    m_pending = std::max(0, m_pending - 1);
    if (m_pending == 0) {
        m_phase = Phase::Idle;
        m_owner = nullptr;
    }
    emit changed();
}
