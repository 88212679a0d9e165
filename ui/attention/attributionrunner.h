#pragma once

#include "engine/attention/attribution.h"
#include "ui/attention/metatypes.h"
#include "ui/core/newestrequestrunner.h"

#include <QObject>
#include <QString>

#include <functional>
#include <memory>

// Explains the typed sentence by every method on a thread of its own (NewestRequestRunner), so
// neither typing nor a running training waits for the gradients: the worker's queue is busy for the
// whole of a training run, and the sentence has to follow the keystrokes. Each model is cloned once,
// on the caller's thread, because a Seq2SeqModel serves one thread at a time.
class AttributionRunner : public QObject
{
    Q_OBJECT
public:
    explicit AttributionRunner(QObject *parent = nullptr);

    void attribute(const ModelSnapshot &model, const std::vector<std::string> &words, const AttributionOptions &options);
    // log P(y_row) - log P(alternative) at `row` of `explained` (a result of attribute() on `model`).
    void contrast(const ModelSnapshot &model, const SentenceAttribution &explained, int row,
                  const std::string &alternative, int integrationSteps);
    bool busy() const { return m_runner.busy(); }

signals:
    void attributed(const SentenceAttribution &attribution);
    void contrasted(const ContrastiveAttribution &contrast);
    void failed(const QString &message);  // the engine's message for the newest request

private:
    // Runs on the runner's thread and returns what to do with the result on the caller's.
    using Work = std::function<std::function<void()>(const Seq2SeqModel &)>;
    void post(const ModelSnapshot &model, Work work);

    ModelSnapshot m_cloneOf;  // the snapshot m_clone copies
    std::shared_ptr<const Seq2SeqModel> m_clone;
    NewestRequestRunner m_runner;  // last: its destructor waits for the work under way
};
