#pragma once

#include "ui/attention/metatypes.h"
#include "ui/workbench/jobcontext.h"

#include <QVector>

// The faithfulness of the attribution methods is measured on this many test sentences, integrated
// gradients in fewer steps than the typed sentence's, so a measurement after each epoch stays short.
constexpr int kFaithfulnessSentences = 40;
constexpr int kFaithfulnessIntegrationSteps = 16;

// The attention lab's work on the worker's thread; each reports the result types of
// ui/attention/metatypes.h.
LabJob attentionTrainingJob(const DatasetConfig &datasetConfig, const ModelConfig &modelConfig,
                            const TrainingConfig &trainingConfig);
LabJob attentionEvaluationJob(const ModelSnapshot &model);  // `model` is the job's alone
LabJob attentionFaithfulnessJob(const ModelSnapshot &model);  // likewise; reported as epoch 0
LabJob attentionExperimentsJob(const DatasetConfig &datasetConfig, const TrainingConfig &trainingConfig,
                               const QVector<ExperimentRun> &runs, int probeMaxLength);
