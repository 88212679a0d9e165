#include "app/workbench/eventlooplateness.h"

#include <algorithm>

EventLoopLateness::EventLoopLateness(int intervalMs, QObject *parent)
    : QObject(parent), m_intervalMs(intervalMs)
{
    m_timer.setTimerType(Qt::PreciseTimer);
    m_timer.setInterval(intervalMs);
    connect(&m_timer, &QTimer::timeout, this, &EventLoopLateness::tick);
}

void EventLoopLateness::start()
{
    m_lateness.clear();
    m_clock.start();
    m_last = 0;
    m_timer.start();
}

void EventLoopLateness::stop()
{
    m_timer.stop();
}

double EventLoopLateness::worstMs() const
{
    return m_lateness.empty() ? 0.0 : *std::max_element(m_lateness.begin(), m_lateness.end());
}

void EventLoopLateness::tick()
{
    const qint64 now = m_clock.nsecsElapsed();
    m_lateness.push_back(std::max(0.0, double(now - m_last) / 1e6 - m_intervalMs));
    m_last = now;
}
