#pragma once

#include "engine/transformer/transformerattribution.h"
#include "ui/core/newestrequestrunner.h"

#include <QObject>
#include <QString>

#include <functional>
#include <memory>
#include <optional>

struct TransformerSnapshot;

// Explains the Transformer's sentence by the attribution methods on a thread of its own
// (NewestRequestRunner), so that neither typing nor a training run waits for the gradients. The
// thread builds its own TransformerModel from the snapshot's parameters (once per snapshot): the
// gradients need LibTorch's network, which serves one thread at a time.
class TransformerAttributionRunner : public QObject
{
    Q_OBJECT
public:
    explicit TransformerAttributionRunner(QObject *parent = nullptr);

    void attribute(const std::shared_ptr<const TransformerSnapshot> &snapshot, const std::vector<std::string> &words,
                   const AttributionOptions &options);
    // log P(y_row) - log P(alternative) at `row` of `explained` (a result of attribute() on `snapshot`).
    void contrast(const std::shared_ptr<const TransformerSnapshot> &snapshot, const TransformerAttribution &explained,
                  int row, const std::string &alternative, int integrationSteps);
    bool busy() const { return m_runner.busy(); }

signals:
    void attributed(const TransformerAttribution &attribution);
    void contrasted(const ContrastiveAttribution &contrast);
    void failed(const QString &message);  // the engine's message for the newest request

private:
    // Runs on the runner's thread and returns what to do with the result on the caller's.
    using Work = std::function<std::function<void()>(const TransformerModel &)>;
    void post(const std::shared_ptr<const TransformerSnapshot> &snapshot, Work work);
    const TransformerModel &modelOf(const TransformerSnapshot &snapshot);  // on the runner's thread

    // The runner's thread alone reads and writes these two.
    std::shared_ptr<const std::vector<NamedTensor>> m_builtFrom;  // the parameters m_model was built from
    std::optional<TransformerModel> m_model;
    NewestRequestRunner m_runner;  // last: its destructor waits for the work under way
};
