#include "ui/core/newestrequestrunner.h"

#include "engine/fast/singlethreadscope.h"

#include <QMetaObject>

#include <exception>

NewestRequestRunner::NewestRequestRunner(QObject *parent) : QObject(parent), m_thread([this] { loop(); })
{
}

NewestRequestRunner::~NewestRequestRunner()
{
    {
        const std::lock_guard<std::mutex> lock(m_mutex);
        m_stop = true;
    }
    m_wake.notify_all();
    m_thread.join();
}

void NewestRequestRunner::post(Work work)
{
    {
        const std::lock_guard<std::mutex> lock(m_mutex);
        m_pending = std::move(work);
        ++m_newest;
    }
    m_wake.notify_all();
}

bool NewestRequestRunner::busy() const
{
    const std::lock_guard<std::mutex> lock(m_mutex);
    return m_running || m_pending;
}

bool NewestRequestRunner::isNewest(quint64 request) const
{
    const std::lock_guard<std::mutex> lock(m_mutex);
    return request == m_newest && !m_stop;
}

void NewestRequestRunner::loop()
{
    const SingleThreadScope oneThread;
    for (;;) {
        Work work;
        quint64 request = 0;
        {
            std::unique_lock<std::mutex> lock(m_mutex);
            m_wake.wait(lock, [this] { return m_stop || m_pending; });
            if (m_stop)
                return;
            work = std::move(m_pending);
            m_pending = nullptr;
            request = m_newest;
            m_running = true;
        }
        std::function<void()> deliver;
        try {
            deliver = work();
        } catch (const std::exception &error) {
            const QString message = QString::fromUtf8(error.what());
            deliver = [this, message] { emit failed(message); };
        }
        {
            const std::lock_guard<std::mutex> lock(m_mutex);
            m_running = false;
        }
        // Checked again on arrival: a request made while this result was on its way supersedes it.
        if (isNewest(request))
            QMetaObject::invokeMethod(
                this,
                [this, request, deliver] {
                    if (isNewest(request))
                        deliver();
                },
                Qt::QueuedConnection);
    }
}
