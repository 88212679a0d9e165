#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

#include <vector>

// How late the thread's event loop runs a timer that should fire every `intervalMs`: the delay
// a person feels between an input and its repaint while the loop is busy elsewhere.
class EventLoopLateness : public QObject
{
    Q_OBJECT
public:
    explicit EventLoopLateness(int intervalMs, QObject *parent = nullptr);

    void start();
    void stop();
    // Lateness of each tick in ms (actual interval minus the nominal one, at least 0).
    const std::vector<double> &lateness() const { return m_lateness; }
    double worstMs() const;

private:
    void tick();

    int m_intervalMs;
    QTimer m_timer;
    QElapsedTimer m_clock;
    qint64 m_last = 0;
    std::vector<double> m_lateness;
};
