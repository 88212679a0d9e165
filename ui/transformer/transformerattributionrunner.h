#pragma once

#include "engine/transformer/transformerattribution.h"

#include <QObject>
#include <QString>

#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

struct TransformerSnapshot;

// Explains the Transformer's sentence by the attribution methods on a thread of its own, so that
// neither typing nor a training run waits for the gradients. Only the newest request is computed;
// one superseded before it starts is dropped, one superseded while running is not reported. The
// thread builds its own TransformerModel from the snapshot's parameters (once per snapshot): the
// gradients need LibTorch's network, which serves one thread at a time. It computes on one core:
// beside a training run's threads a second would only contend.
class TransformerAttributionRunner : public QObject
{
    Q_OBJECT
public:
    explicit TransformerAttributionRunner(QObject *parent = nullptr);
    ~TransformerAttributionRunner() override;  // waits for the computation under way

    void attribute(const std::shared_ptr<const TransformerSnapshot> &snapshot, const std::vector<std::string> &words,
                   const AttributionOptions &options);

signals:
    void attributed(const TransformerAttribution &attribution);
    void failed(const QString &message);  // the engine's message for the newest request

private:
    struct Request {
        std::shared_ptr<const TransformerSnapshot> snapshot;
        std::vector<std::string> words;
        AttributionOptions options;
        quint64 number = 0;
    };
    void loop();
    bool isNewest(quint64 number) const;

    mutable std::mutex m_mutex;
    std::condition_variable m_wake;
    std::optional<Request> m_pending;  // under m_mutex
    quint64 m_newest = 0;              // under m_mutex
    bool m_stop = false;               // under m_mutex
    std::thread m_thread;
};
