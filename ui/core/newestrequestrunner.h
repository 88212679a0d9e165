#pragma once

#include <QObject>
#include <QString>

#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

// Runs the newest of its requests on a thread of its own, so that neither typing nor a training
// run waits for a long computation (an explanation's gradients). A request superseded before it
// starts is dropped; one superseded while running is not delivered. The thread computes on one
// core: beside a training run's threads a second would only contend. It knows no lab: a request is
// a function, and what it returns is run back on the owner's thread if the request is still the
// newest when it gets there.
class NewestRequestRunner : public QObject
{
    Q_OBJECT
public:
    // Runs on the runner's thread; returns what to do with its result on the owner's thread.
    using Work = std::function<std::function<void()>()>;

    explicit NewestRequestRunner(QObject *parent = nullptr);
    ~NewestRequestRunner() override;  // waits for the work under way; nothing is delivered after

    void post(Work work);  // supersedes every request not yet delivered
    bool busy() const;     // a request waits or runs

signals:
    void failed(const QString &message);  // the newest request threw a std::exception: its message

private:
    void loop();
    bool isNewest(quint64 request) const;

    mutable std::mutex m_mutex;
    std::condition_variable m_wake;
    Work m_pending;         // under m_mutex; empty: nothing waiting
    quint64 m_newest = 0;   // under m_mutex
    bool m_running = false; // under m_mutex
    bool m_stop = false;    // under m_mutex
    std::thread m_thread;
};
