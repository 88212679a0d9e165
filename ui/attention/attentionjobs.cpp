#include "ui/attention/attentionjobs.h"

#include "engine/attention/alignmentscore.h"
#include "engine/attention/attentionanalysis.h"
#include "engine/attention/evaluation.h"
#include "engine/attention/experiment.h"
#include "engine/attention/faithfulness.h"
#include "engine/core/corpusdefaults.h"
#include "engine/core/dataset.h"
#include "engine/core/vocabulary.h"

#include <QCoreApplication>
#include <QLocale>

#include <algorithm>

#include <stdexcept>

namespace {

QString trAttentionJobs(const char *text, int n = -1)
{
    return QCoreApplication::translate("AttentionJobs", text, nullptr, n);
}

// Cloned here, on the training thread: the GUI never touches the model being trained. Ready to
// decode, so the GUI's first keystroke on it does not build the decoder's weights.
ModelSnapshot snapshotOf(const Seq2SeqModel &model)
{
    auto snapshot = std::make_shared<const Seq2SeqModel>(model.clone());
    snapshot->prepareDecoding();
    return snapshot;
}

// `alignment`: measured after each epoch of the run that trained `model`, if one did.
void evaluateAndReport(JobContext &context, const Seq2SeqModel &model, const Dataset &data, Task task,
                       const std::vector<EpochAlignment> &alignment = {})
{
    context.report(EvaluationStarted{int(data.test.size())});
    const EvaluationReport report = evaluate(model, data.test, DecodeMode::Batched);
    if (context.cancelled())
        return;
    const AttentionAnalysis analysis = analyseAttention(model, data.test, task);
    const std::string markdown = analysisMarkdown(analysis, report, model.history, alignment);
    context.report(EvaluationFinished{report, QString::fromStdString(markdown),
                                      data.fromCorpus ? lengthReport(data, report) : LengthReport{}});
}

// The first sentences of the test split explained and erased (faithfulness.h); progress is
// reported per sentence. Stop or closing ends it early, with what was measured until then.
void measureAndReportFaithfulness(JobContext &context, const Seq2SeqModel &model, const std::vector<SentencePair> &test,
                                  int epoch, const std::atomic<bool> *abandoned = nullptr)
{
    const std::vector<SentencePair> subset(test.begin(),
                                           test.begin() + std::min<std::ptrdiff_t>(kFaithfulnessSentences,
                                                                                   std::ptrdiff_t(test.size())));
    if (subset.empty())
        return;
    AttributionOptions options;
    options.integrationSteps = kFaithfulnessIntegrationSteps;
    const std::atomic<bool> &stop = *context.stopFlag();
    int done = 0;
    const int total = int(subset.size());
    context.report(FaithfulnessProgress{epoch, 0, total});
    FaithfulnessMeasured measured{epoch, {}, options.integrationSteps, {}};
    // A measurement that fails says why on the page; the training it follows goes on.
    try {
        measured.report = measureFaithfulness(model, subset, model.datasetConfig.task, options, [&] {
            context.report(FaithfulnessProgress{epoch, std::min(done++, total), total});
            return !stop && !context.cancelled() && !(abandoned && *abandoned);
        });
    } catch (const std::exception &error) {
        measured.problem = trAttentionJobs("Cannot measure faithfulness: %1").arg(QString::fromStdString(error.what()));
    }
    if (!context.cancelled() && !(abandoned && *abandoned))
        context.report(measured);
}

void train(JobContext &context, const DatasetConfig &datasetConfig, const ModelConfig &modelConfig,
           const TrainingConfig &trainingConfig, const std::atomic<bool> *measureFaithfulness)
{
    for (const std::string &problem : {validate(modelConfig), validate(trainingConfig)})
        if (!problem.empty())
            throw std::invalid_argument(problem);
    const Dataset data = Dataset::build(datasetConfig);
    Seq2SeqModel model = Seq2SeqModel::forDataset(modelConfig, data, datasetConfig, trainingConfig.seed);
    const Vocabulary &vocabulary = model.vocabulary();
    const QLocale locale;
    context.started(trainingConfig.epochs, trAttentionJobs("sentences"),
                    trAttentionJobs("Training %1 parameters on %2 sentences (%3 words in the vocabulary).")
                        .arg(locale.toString(model.parameterCount()), locale.toString(qlonglong(data.train.size())))
                        .arg(vocabulary.size()));

    Trainer::Callbacks callbacks;
    callbacks.onBatch = [&context](const BatchProgress &progress) { context.batch(progress); };
    std::vector<EpochAlignment> alignment;
    callbacks.onEpoch = [&](const EpochStats &stats, bool isBest) {
        EpochTrained epoch = epochTrained(stats, isBest, snapshotOf(model), std::nullopt);
        if (model.hasAttention()) {
            epoch.alignment = measureAlignment(model, data.val, datasetConfig.task);
            alignment.push_back({stats.epoch, *epoch.alignment});
        }
        context.reportAndWaitForWindow(epoch);
        if (measureFaithfulness && *measureFaithfulness)
            measureAndReportFaithfulness(context, model, data.test, stats.epoch);
    };
    Trainer trainer(model, data, trainingConfig);
    const TrainingOutcome outcome = trainer.run(callbacks, context.stopFlag());
    if (context.cancelled())
        return;
    const ModelSnapshot best = outcome.bestEpoch > 0 ? snapshotOf(model) : nullptr;
    context.reportAndWaitForWindow(TrainingFinished{outcome, best});
    if (best)
        evaluateAndReport(context, model, data, datasetConfig.task, alignment);
}

}

LabJob attentionTrainingJob(const DatasetConfig &datasetConfig, const ModelConfig &modelConfig,
                            const TrainingConfig &trainingConfig,
                            std::shared_ptr<const std::atomic<bool>> measureFaithfulness)
{
    return [=](JobContext &context) {
        try {
            train(context, datasetConfig, modelConfig, trainingConfig, measureFaithfulness.get());
        } catch (const DatasetError &) {
            throw;  // its message says what is wrong with the data
        } catch (const std::invalid_argument &) {
            throw;  // a setting the engine refuses, named
        } catch (const std::exception &error) {
            throw std::runtime_error(trAttentionJobs("Training failed: %1").arg(QString::fromStdString(error.what())).toStdString());
        }
    };
}

LabJob attentionEvaluationJob(const ModelSnapshot &model)
{
    return [model](JobContext &context) {
        if (!model)
            return;
        const Dataset data = Dataset::build(model->datasetConfig);
        evaluateAndReport(context, *model, data, model->datasetConfig.task);
    };
}

LabJob attentionFaithfulnessJob(const ModelSnapshot &model, std::shared_ptr<const std::atomic<bool>> abandoned)
{
    return [model, abandoned](JobContext &context) {
        if (!model || *abandoned)
            return;
        const Dataset data = Dataset::build(model->datasetConfig);
        measureAndReportFaithfulness(context, *model, data.test, 0, abandoned.get());
    };
}

LabJob attentionExperimentsJob(const DatasetConfig &datasetConfig, const TrainingConfig &trainingConfig,
                               const QVector<ExperimentRun> &runs, int probeMaxLength)
{
    return [=](JobContext &context) {
        const Dataset data = Dataset::build(datasetConfig);
        const std::vector<SentencePair> probe = probeSet(datasetConfig, probeMaxLength, 2000);
        const std::atomic<bool> &stop = *context.stopFlag();
        for (int i = 0; i < runs.size() && !stop; ++i) {
            const ExperimentRun &run = runs[i];
            context.report(ExperimentStarted{i, run.modelSeed});
            Trainer::Callbacks callbacks;
            callbacks.onEpoch = [&context, i](const EpochStats &stats, bool) { context.report(ExperimentEpoch{i, stats}); };
            const ExperimentResult r = runExperiment(attentionName(run.model.attention), data, datasetConfig, run.model,
                                                     run.modelSeed, trainingConfig, probe, callbacks, &stop);
            if (r.best)
                r.best->prepareDecoding();  // here, not on the GUI's first decode
            context.report(ExperimentFinished{i, r.test.exactMatch, r.probe, r.best});
        }
        context.report(ExperimentsFinished{stop ? trAttentionJobs("Stopped.") : trAttentionJobs("Done: %n run(s) compared.", int(runs.size()))});
    };
}
