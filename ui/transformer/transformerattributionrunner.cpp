#include "ui/transformer/transformerattributionrunner.h"

#include "engine/fast/singlethreadscope.h"
#include "ui/transformer/transformerresults.h"

#include <QMetaObject>

#include <exception>
#include <functional>

TransformerAttributionRunner::TransformerAttributionRunner(QObject *parent)
    : QObject(parent), m_thread([this] { loop(); })
{
}

TransformerAttributionRunner::~TransformerAttributionRunner()
{
    {
        const std::lock_guard<std::mutex> lock(m_mutex);
        m_stop = true;
    }
    m_wake.notify_all();
    m_thread.join();
}

void TransformerAttributionRunner::attribute(const std::shared_ptr<const TransformerSnapshot> &snapshot,
                                             const std::vector<std::string> &words, const AttributionOptions &options)
{
    if (!snapshot)
        return;
    {
        const std::lock_guard<std::mutex> lock(m_mutex);
        m_pending = Request{snapshot, words, options, ++m_newest};
    }
    m_wake.notify_all();
}

bool TransformerAttributionRunner::isNewest(quint64 number) const
{
    const std::lock_guard<std::mutex> lock(m_mutex);
    return number == m_newest && !m_stop;
}

void TransformerAttributionRunner::loop()
{
    const SingleThreadScope oneThread;
    std::shared_ptr<const std::vector<NamedTensor>> builtFrom;  // the parameters `model` was built from
    std::optional<TransformerModel> model;
    for (;;) {
        Request request;
        {
            std::unique_lock<std::mutex> lock(m_mutex);
            m_wake.wait(lock, [this] { return m_stop || m_pending; });
            if (m_stop)
                return;
            request = std::move(*m_pending);
            m_pending.reset();
        }
        std::function<void()> deliver;
        try {
            const TransformerSnapshot &snapshot = *request.snapshot;
            if (!snapshot.weights)
                throw std::invalid_argument("these weights came without the network's parameters");
            if (snapshot.weights != builtFrom) {
                model.reset();
                model.emplace(TransformerModel::withParameters(snapshot.config, snapshot.vocabulary, snapshot.task,
                                                                *snapshot.weights));
                builtFrom = snapshot.weights;
            }
            TransformerAttribution result = attributeTransformer(*model, request.words, request.options);
            deliver = [this, result] { emit attributed(result); };
        } catch (const std::exception &error) {
            const QString message = QString::fromUtf8(error.what());
            deliver = [this, message] { emit failed(message); };
        }
        // Checked again on arrival: a request made while this result was on its way supersedes it.
        if (isNewest(request.number))
            QMetaObject::invokeMethod(
                this,
                [this, number = request.number, deliver] {
                    if (isNewest(number))
                        deliver();
                },
                Qt::QueuedConnection);
    }
}
