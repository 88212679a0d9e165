#pragma once

#include "ui/attention/metatypes.h"
#include "ui/workbench/jobcontext.h"

#include <QVector>

#include <atomic>
#include <memory>

// The faithfulness of the attribution methods is measured on this many test sentences, integrated
// gradients in fewer steps than the typed sentence's, so a measurement after each epoch stays short.
constexpr int kFaithfulnessSentences = 40;
constexpr int kFaithfulnessIntegrationSteps = 16;

// The attention lab's work on the worker's thread; each reports the result types of
// ui/attention/metatypes.h.
// After each epoch the run's faithfulness is measured while `measureFaithfulness` is set (the
// Faithfulness page has been looked at): it costs about as much as an epoch of the default run.
LabJob attentionTrainingJob(const DatasetConfig &datasetConfig, const ModelConfig &modelConfig,
                            const TrainingConfig &trainingConfig,
                            std::shared_ptr<const std::atomic<bool>> measureFaithfulness = nullptr);
LabJob attentionEvaluationJob(const ModelSnapshot &model);  // `model` is the job's alone
// Likewise, reported as epoch 0; `abandoned` set ends it early and unreported (training began, or
// another model was opened), so the worker's queue does not wait for a measurement nobody sees.
LabJob attentionFaithfulnessJob(const ModelSnapshot &model, std::shared_ptr<const std::atomic<bool>> abandoned);
LabJob attentionExperimentsJob(const DatasetConfig &datasetConfig, const TrainingConfig &trainingConfig,
                               const QVector<ExperimentRun> &runs, int probeMaxLength);
