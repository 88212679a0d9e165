#pragma once

#include "ui/attention/metatypes.h"

#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QVector>

#include <atomic>
#include <condition_variable>
#include <mutex>

// Trains and evaluates models on the thread it is moved to and reports plain values back through
// queued signals. Stop, cancel, pause and resume are thread-safe and take effect at the next batch.
class TrainingWorker : public QObject
{
    Q_OBJECT
public:
    // Batch reports are merged so the GUI sees at most this many per second.
    static constexpr int kMaxBatchReportsPerSecond = 20;

    explicit TrainingWorker(QObject *parent = nullptr);

    // Queue a training run (or an evaluation of `model` on its test split) on the worker's thread.
    // `model` must not be used by any other thread afterwards.
    void start(const DatasetConfig &datasetConfig, const ModelConfig &modelConfig,
               const TrainingConfig &trainingConfig);
    void startEvaluation(const ModelSnapshot &model);
    // Queue a comparison: each of `configs` trained in turn on the same data and seed, then tested
    // on the test split and on probe sentences up to `probeMaxLength` words. Stop ends it.
    void startExperiments(const DatasetConfig &datasetConfig, const TrainingConfig &trainingConfig,
                          const QVector<ModelConfig> &configs, int probeMaxLength);

    void requestStop();    // training ends; the best model so far is still evaluated
    void requestCancel();  // training ends and nothing else runs: the application is closing
    void pause();
    void resume();
    bool isPaused() const;

signals:
    void started(int epochs, qint64 parameters, int vocabularySize, int trainSentences);
    // `loss` is the mean over the batches merged into this report.
    void batchProgress(const BatchProgress &progress);
    void pausedChanged(bool paused);
    // `snapshot` is a copy of the weights at the end of this epoch.
    void epochFinished(const EpochStats &stats, bool isBest, const ModelSnapshot &snapshot);
    // `best` holds the weights of the best epoch; null when no epoch completed.
    void trainingFinished(const TrainingOutcome &outcome, const ModelSnapshot &best);
    void evaluationStarted(int sentences);
    void evaluated(const EvaluationReport &report, const QString &analysisMarkdown);
    void evaluationFailed(const QString &message);
    void failed(const QString &message);
    void idle();  // the current request is done, successfully or not
    void experimentStarted(int index);
    void experimentEpoch(int index, const EpochStats &stats);
    // `probe`: the probe sentences' report (exact match by length); empty when no epoch completed.
    void experimentFinished(int index, double testExactMatch, const EvaluationReport &probe);
    void experimentsFinished(const QString &message);

private:
    void train(const DatasetConfig &datasetConfig, const ModelConfig &modelConfig,
               const TrainingConfig &trainingConfig);
    void evaluateModel(const ModelSnapshot &model);
    void runExperiments(const DatasetConfig &datasetConfig, const TrainingConfig &trainingConfig,
                        const QVector<ModelConfig> &configs, int probeMaxLength);
    void reportBatch(const BatchProgress &progress);
    void waitWhilePaused();
    void evaluateAndReport(const Seq2SeqModel &model, const std::vector<SentencePair> &test, Task task);

    std::atomic<bool> m_stop{false};
    std::atomic<bool> m_cancel{false};
    mutable std::mutex m_pauseMutex;
    std::condition_variable m_pauseChanged;
    bool m_paused = false;

    QElapsedTimer m_sinceReport;
    double m_lossSum = 0;
    int m_lossCount = 0;
};
