#include "ui/attention/attributionrunner.h"

#include "engine/fast/singlethreadscope.h"

#include <QMetaObject>

#include <exception>

AttributionRunner::AttributionRunner(QObject *parent) : QObject(parent), m_thread([this] { loop(); })
{
}

AttributionRunner::~AttributionRunner()
{
    {
        const std::lock_guard<std::mutex> lock(m_mutex);
        m_stop = true;
    }
    m_wake.notify_all();
    m_thread.join();
}

void AttributionRunner::attribute(const ModelSnapshot &model, const std::vector<std::string> &words,
                                  const AttributionOptions &options)
{
    post(model, [this, words, options](const Seq2SeqModel &copy) -> std::function<void()> {
        SentenceAttribution result = ::attribute(copy, words, options);
        return [this, result] { emit attributed(result); };
    });
}

void AttributionRunner::contrast(const ModelSnapshot &model, const SentenceAttribution &explained, int row,
                                 const std::string &alternative, int integrationSteps)
{
    AttributionOptions options;
    options.integrationSteps = integrationSteps;
    post(model, [this, explained, row, alternative, options](const Seq2SeqModel &copy) -> std::function<void()> {
        ContrastiveAttribution result = attributeContrast(copy, explained, row, alternative, options);
        return [this, result] { emit contrasted(result); };
    });
}

bool AttributionRunner::busy() const
{
    const std::lock_guard<std::mutex> lock(m_mutex);
    return m_running || m_pending;
}

void AttributionRunner::post(const ModelSnapshot &model, Work work)
{
    if (!model)
        return;
    if (model != m_cloneOf) {
        m_clone = std::make_shared<const Seq2SeqModel>(model->clone());
        m_cloneOf = model;
    }
    {
        const std::lock_guard<std::mutex> lock(m_mutex);
        m_pending = std::move(work);
        m_pendingModel = m_clone;
        ++m_newest;
    }
    m_wake.notify_all();
}

void AttributionRunner::loop()
{
    const SingleThreadScope oneThread;
    for (;;) {
        Work work;
        std::shared_ptr<const Seq2SeqModel> model;
        quint64 request = 0;
        {
            std::unique_lock<std::mutex> lock(m_mutex);
            m_wake.wait(lock, [this] { return m_stop || m_pending; });
            if (m_stop)
                return;
            work = std::move(m_pending);
            m_pending = nullptr;
            model = std::move(m_pendingModel);
            request = m_newest;
            m_running = true;
        }
        std::function<void()> deliver;
        try {
            deliver = work(*model);
        } catch (const std::exception &error) {
            const QString message = QString::fromStdString(error.what());
            deliver = [this, message] { emit failed(message); };
        }
        bool current = false;
        {
            const std::lock_guard<std::mutex> lock(m_mutex);
            m_running = false;
            current = request == m_newest && !m_stop;
        }
        // Checked again on arrival: a request made while this result was on its way supersedes it.
        if (current)
            QMetaObject::invokeMethod(
                this,
                [this, request, deliver] {
                    bool newest = false;
                    {
                        const std::lock_guard<std::mutex> lock(m_mutex);
                        newest = request == m_newest;
                    }
                    if (newest)
                        deliver();
                },
                Qt::QueuedConnection);
    }
}
