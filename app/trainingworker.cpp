#include "app/trainingworker.h"

#include "engine/attention/attentionanalysis.h"
#include "engine/attention/dataset.h"
#include "engine/attention/evaluation.h"
#include "engine/attention/experiment.h"
#include "engine/attention/trainer.h"
#include "engine/core/vocabulary.h"

#include <exception>

namespace {

// Cloned here, on the training thread: the GUI never touches the model being trained. Ready to
// decode, so the GUI's first keystroke on it does not build the decoder's weights.
ModelSnapshot snapshotOf(const Seq2SeqModel &model)
{
    auto snapshot = std::make_shared<const Seq2SeqModel>(model.clone());
    snapshot->prepareDecoding();
    return snapshot;
}

}

TrainingWorker::TrainingWorker(QObject *parent) : QObject(parent)
{
    registerMetaTypes();
}

void TrainingWorker::start(const DatasetConfig &datasetConfig, const ModelConfig &modelConfig,
                           const TrainingConfig &trainingConfig)
{
    // Reset here, on the caller's thread, so a stop pressed right after starting is never lost;
    // a cancel is for good.
    m_stop = m_cancel.load();
    {
        std::lock_guard<std::mutex> lock(m_pauseMutex);
        m_paused = false;
    }
    QMetaObject::invokeMethod(
        this, [=] { train(datasetConfig, modelConfig, trainingConfig); }, Qt::QueuedConnection);
}

void TrainingWorker::startEvaluation(const ModelSnapshot &model)
{
    QMetaObject::invokeMethod(this, [=] { evaluateModel(model); }, Qt::QueuedConnection);
}

void TrainingWorker::startExperiments(const DatasetConfig &datasetConfig, const TrainingConfig &trainingConfig,
                                      const QVector<ModelConfig> &configs, int probeMaxLength)
{
    m_stop = m_cancel.load();
    QMetaObject::invokeMethod(
        this, [=] { runExperiments(datasetConfig, trainingConfig, configs, probeMaxLength); }, Qt::QueuedConnection);
}

void TrainingWorker::requestStop()
{
    m_stop = true;
    std::lock_guard<std::mutex> lock(m_pauseMutex);
    m_pauseChanged.notify_all();
}

void TrainingWorker::requestCancel()
{
    m_cancel = true;
    requestStop();
}

void TrainingWorker::pause()
{
    std::lock_guard<std::mutex> lock(m_pauseMutex);
    m_paused = true;
}

void TrainingWorker::resume()
{
    std::lock_guard<std::mutex> lock(m_pauseMutex);
    m_paused = false;
    m_pauseChanged.notify_all();
}

bool TrainingWorker::isPaused() const
{
    std::lock_guard<std::mutex> lock(m_pauseMutex);
    return m_paused;
}

void TrainingWorker::train(const DatasetConfig &datasetConfig, const ModelConfig &modelConfig,
                           const TrainingConfig &trainingConfig)
{
    m_lossSum = 0;
    m_lossCount = 0;
    if (m_cancel) {
        emit idle();
        return;
    }

    try {
        for (const std::string &problem : {validate(modelConfig), validate(trainingConfig)}) {
            if (!problem.empty()) {
                emit failed(QString::fromStdString(problem));
                emit idle();
                return;
            }
        }
        const Dataset data = Dataset::build(datasetConfig);
        const Vocabulary vocabulary =
            Vocabulary::build(data.train, datasetConfig.maxVocabulary, datasetConfig.minCount);
        Seq2SeqModel model(modelConfig, vocabulary, trainingConfig.seed);
        model.datasetConfig = datasetConfig;
        emit started(trainingConfig.epochs, model.parameterCount(), vocabulary.size(),
                     int(data.train.size()));

        Trainer::Callbacks callbacks;
        callbacks.onBatch = [this](const BatchProgress &progress) {
            reportBatch(progress);
            waitWhilePaused();
        };
        callbacks.onEpoch = [this, &model](const EpochStats &stats, bool isBest) {
            emit epochFinished(stats, isBest, snapshotOf(model));
        };
        m_sinceReport.start();
        Trainer trainer(model, data, trainingConfig);
        const TrainingOutcome outcome = trainer.run(callbacks, &m_stop);
        if (m_cancel) {
            emit idle();
            return;
        }

        ModelSnapshot best;
        if (outcome.bestEpoch > 0)
            best = snapshotOf(model);
        emit trainingFinished(outcome, best);
        if (best)
            evaluateAndReport(model, data.test, datasetConfig.task);
    } catch (const DatasetError &error) {
        emit failed(QString::fromStdString(error.what()));
    } catch (const std::exception &error) {
        emit failed(tr("Training failed: %1").arg(QString::fromStdString(error.what())));
    }
    emit idle();
}

void TrainingWorker::runExperiments(const DatasetConfig &datasetConfig, const TrainingConfig &trainingConfig,
                                    const QVector<ModelConfig> &configs, int probeMaxLength)
{
    try {
        const Dataset data = Dataset::build(datasetConfig);
        const std::vector<SentencePair> probe = probeSet(datasetConfig, probeMaxLength, 2000);
        for (int i = 0; i < configs.size() && !m_stop; ++i) {
            emit experimentStarted(i);
            Trainer::Callbacks callbacks;
            callbacks.onEpoch = [this, i](const EpochStats &stats, bool) { emit experimentEpoch(i, stats); };
            const ExperimentResult r = runExperiment(attentionName(configs[i].attention), data, datasetConfig,
                                                     configs[i], trainingConfig, probe, callbacks, &m_stop);
            emit experimentFinished(i, r.test.exactMatch, r.probe);
        }
        emit experimentsFinished(m_stop ? tr("Stopped.") : tr("Done: %n run(s) compared.", nullptr, int(configs.size())));
    } catch (const std::exception &error) {
        emit experimentsFinished(tr("Comparison failed: %1").arg(QString::fromStdString(error.what())));
    }
}

void TrainingWorker::evaluateModel(const ModelSnapshot &model)
{
    if (m_cancel || !model) {
        emit idle();
        return;
    }
    try {
        const Dataset data = Dataset::build(model->datasetConfig);
        evaluateAndReport(*model, data.test, model->datasetConfig.task);
    } catch (const std::exception &error) {
        emit evaluationFailed(QString::fromStdString(error.what()));
    }
    emit idle();
}

void TrainingWorker::evaluateAndReport(const Seq2SeqModel &model, const std::vector<SentencePair> &test,
                                       Task task)
{
    emit evaluationStarted(int(test.size()));
    const EvaluationReport report = evaluate(model, test, DecodeMode::Batched);
    if (m_cancel)
        return;
    const AttentionAnalysis analysis = analyseAttention(model, test, task);
    emit evaluated(report, QString::fromStdString(analysisMarkdown(analysis, report)));
}

void TrainingWorker::reportBatch(const BatchProgress &progress)
{
    m_lossSum += progress.loss;
    ++m_lossCount;
    const bool lastOfEpoch = progress.batch == progress.batchesPerEpoch;
    if (!lastOfEpoch && m_sinceReport.elapsed() < 1000 / kMaxBatchReportsPerSecond)
        return;
    BatchProgress merged = progress;
    merged.loss = m_lossSum / m_lossCount;
    m_lossSum = 0;
    m_lossCount = 0;
    m_sinceReport.restart();
    emit batchProgress(merged);
}

void TrainingWorker::waitWhilePaused()
{
    std::unique_lock<std::mutex> lock(m_pauseMutex);
    if (!m_paused || m_stop)
        return;
    emit pausedChanged(true);
    m_pauseChanged.wait(lock, [this] { return !m_paused || m_stop; });
    emit pausedChanged(false);
}
