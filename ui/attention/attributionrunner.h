#pragma once

#include "engine/attention/attribution.h"
#include "ui/attention/metatypes.h"

#include <QObject>
#include <QString>

#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>

// Explains the typed sentence by every method on a thread of its own, so neither typing nor a
// running training waits for the gradients: the worker's queue is busy for the whole of a training
// run, and the sentence has to follow the keystrokes. Only the newest request is computed; one that
// is superseded before it starts is dropped, one superseded while running is not reported. Each
// model is cloned once, on the caller's thread, because a Seq2SeqModel serves one thread at a time.
// The thread computes on one core: beside a training run's threads a second would only contend.
class AttributionRunner : public QObject
{
    Q_OBJECT
public:
    explicit AttributionRunner(QObject *parent = nullptr);
    ~AttributionRunner() override;  // waits for the computation under way

    void attribute(const ModelSnapshot &model, const std::vector<std::string> &words, const AttributionOptions &options);
    // log P(y_row) - log P(alternative) at `row` of `explained` (a result of attribute() on `model`).
    void contrast(const ModelSnapshot &model, const SentenceAttribution &explained, int row,
                  const std::string &alternative, int integrationSteps);
    bool busy() const;

signals:
    void attributed(const SentenceAttribution &attribution);
    void contrasted(const ContrastiveAttribution &contrast);
    void failed(const QString &message);  // the engine's message for the newest request

private:
    // Runs on the runner's thread and returns what to do with the result on the caller's.
    using Work = std::function<std::function<void()>(const Seq2SeqModel &)>;
    void post(const ModelSnapshot &model, Work work);
    void loop();

    ModelSnapshot m_cloneOf;                   // the snapshot m_clone copies
    std::shared_ptr<const Seq2SeqModel> m_clone;

    mutable std::mutex m_mutex;
    std::condition_variable m_wake;
    std::shared_ptr<const Seq2SeqModel> m_pendingModel;  // under m_mutex
    Work m_pending;                                      // under m_mutex; empty: nothing waiting
    quint64 m_newest = 0;                                // under m_mutex
    bool m_running = false;                              // under m_mutex
    bool m_stop = false;                                 // under m_mutex
    std::thread m_thread;
};
