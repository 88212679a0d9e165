#include "ui/transformer/transformerjobs.h"

#include "engine/core/corpusdefaults.h"
#include "engine/core/dataset.h"
#include "engine/transformer/transformerattribution.h"
#include "engine/transformer/transformercheckpoint.h"
#include "engine/transformer/transformerfaithfulness.h"
#include "engine/transformer/transformermodel.h"
#include "engine/transformer/transformertrainer.h"
#include "ui/transformer/transformerresults.h"

#include <QCoreApplication>
#include <QLocale>

#include <algorithm>
#include <stdexcept>

namespace {

constexpr int kProbeLengthFactor = 3;  // how far past the trained lengths a run is probed
constexpr int kProbeSentences = 2000;  // as the attention lab's Experiments

QString trTransformerJobs(const char *text)
{
    return QCoreApplication::translate("TransformerJobs", text);
}

// The first sentences of `test` explained and erased by every method, progress reported per
// sentence; the report covers what was done when `keepGoing` says no. A measurement that fails says
// why on the page; a training it follows goes on.
TransformerFaithfulnessMeasured measureFaithfulnessSample(JobContext &context, const TransformerModel &model,
                                                          const std::vector<SentencePair> &test, int epoch,
                                                          const std::function<bool()> &keepGoing)
{
    const std::vector<SentencePair> sample(
        test.begin(), test.begin() + std::min<std::ptrdiff_t>(kTransformerFaithfulnessSentences, std::ptrdiff_t(test.size())));
    AttributionOptions options;
    options.methods = transformerAttributionMethods();
    options.integrationSteps = kTransformerFaithfulnessIntegrationSteps;
    const int total = int(sample.size());
    int done = 0;
    TransformerFaithfulnessMeasured measured{epoch, {}, {}};
    try {
        measured.report = measureTransformerFaithfulness(model, sample, model.task(), options, [&] {
            context.report(TransformerFaithfulnessProgress{epoch, std::min(done++, total), total});
            return keepGoing();
        });
    } catch (const std::exception &error) {
        measured.problem =
            trTransformerJobs("Cannot measure faithfulness: %1").arg(QString::fromStdString(error.what()));
    }
    return measured;
}

}  // namespace

LabJob transformerTrainingJob(const DatasetConfig &data, const TransformerConfig &model,
                              const TransformerTrainingConfig &training,
                              std::shared_ptr<const std::atomic<bool>> measureFaithfulness)
{
    return [data, model, training, measureFaithfulness](JobContext &context) {
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
            if (measureFaithfulness && *measureFaithfulness) {
                const TransformerFaithfulnessMeasured measured =
                    measureFaithfulnessSample(context, transformer, dataset.test, stats.epoch,
                                              [&] { return !*context.stopFlag() && !context.cancelled(); });
                if (!context.cancelled())
                    context.report(measured);
            }
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

LabJob transformerFaithfulnessJob(std::shared_ptr<const TransformerSnapshot> snapshot, const DatasetConfig &data,
                                  std::shared_ptr<const std::atomic<bool>> abandoned)
{
    return [snapshot, data, abandoned](JobContext &context) {
        if (!snapshot || *abandoned)
            return;
        TransformerFaithfulnessMeasured measured;
        // A corpus that has gone, or weights without their parameters, say so on the page.
        try {
            if (!snapshot->weights)
                throw std::invalid_argument("these weights came without the network's parameters");
            const TransformerModel model = TransformerModel::withParameters(snapshot->config, snapshot->vocabulary,
                                                                            snapshot->task, *snapshot->weights);
            const Dataset dataset = Dataset::build(data);
            measured = measureFaithfulnessSample(context, model, dataset.test, 0,
                                                 [&] { return !context.cancelled() && !*abandoned; });
        } catch (const std::exception &error) {
            measured.problem =
                trTransformerJobs("Faithfulness is not measured: %1").arg(QString::fromStdString(error.what()));
        }
        if (!context.cancelled() && !*abandoned)
            context.report(measured);
    };
}
