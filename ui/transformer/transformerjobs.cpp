#include "ui/transformer/transformerjobs.h"

#include "engine/core/corpusdefaults.h"
#include "engine/core/dataset.h"
#include "engine/transformer/transformercheckpoint.h"
#include "engine/transformer/transformermodel.h"
#include "engine/transformer/transformertrainer.h"
#include "ui/transformer/transformerresults.h"

#include <QCoreApplication>
#include <QLocale>

#include <algorithm>

namespace {

constexpr int kProbeLengthFactor = 3;  // how far past the trained lengths a run is probed
constexpr int kProbeSentences = 2000;  // as the attention lab's Experiments

QString trTransformerJobs(const char *text)
{
    return QCoreApplication::translate("TransformerJobs", text);
}

}  // namespace

LabJob transformerTrainingJob(const DatasetConfig &data, const TransformerConfig &model,
                              const TransformerTrainingConfig &training)
{
    return [data, model, training](JobContext &context) {
        const Dataset dataset = Dataset::build(data);
        TransformerModel transformer(model, vocabularyFor(dataset, data), data.task, training.seed);
        TransformerTrainer trainer(transformer, dataset, training);
        const QLocale locale;
        context.started(training.epochs, trTransformerJobs("sentences"),
                        trTransformerJobs("Training a Transformer of %1 + %1 layers, %2 heads, width %3 (%4 "
                                          "parameters) on %5 sentences.")
                            .arg(model.layers)
                            .arg(model.heads)
                            .arg(model.modelSize)
                            .arg(locale.toString(qlonglong(transformer.parameterCount())),
                                 locale.toString(qlonglong(dataset.train.size()))));
        TransformerTrainer::Callbacks callbacks;
        callbacks.onBatch = [&context](const BatchProgress &progress) { context.batch(progress); };
        callbacks.onEpoch = [&](const EpochStats &stats, bool isBest) {
            context.reportAndWaitForWindow(
                TransformerEpochDone{stats, isBest, transformerSnapshotOf(transformer, stats.epoch)});
        };
        const TransformerRun run = trainer.run(callbacks, context.stopFlag());
        if (context.cancelled() || run.epochsDone == 0)
            return;
        TransformerSnapshot best = *transformerSnapshotOf(transformer, run.bestEpoch);
        best.testHeads = std::make_shared<const SplitHeadScores>(
            splitHeadScores(*best.inference, best.vocabulary, best.task, dataset.test));
        TransformerTrainingFinished finished{run.epochsDone, training.epochs, run.stopped,
                                             std::make_shared<const TransformerSnapshot>(std::move(best)),
                                             transformer.score(dataset.test)};
        finished.checkpoint =
            std::make_shared<const std::string>(transformercheckpoint::encode(transformer, data, training));
        finished.trainedMinLength = data.minLength;
        finished.trainedMaxLength = dataset.maxLength;
        if (data.corpusPath.empty()) {
            // Up to 3x the trained length, as far as the positions reach (<EOS> and <SOS> take one each).
            const int longest = std::min(kProbeLengthFactor * dataset.maxLength, model.maxPositions - 2);
            finished.probe = transformer.score(probeSet(data, longest, kProbeSentences));
        }
        context.report(finished);
    };
}
