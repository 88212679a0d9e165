#pragma once

#include "ui/attention/metatypes.h"
#include "ui/workbench/jobcontext.h"

#include <QVector>

// The attention lab's work on the worker's thread; each reports the result types of
// ui/attention/metatypes.h.
LabJob attentionTrainingJob(const DatasetConfig &datasetConfig, const ModelConfig &modelConfig,
                            const TrainingConfig &trainingConfig);
LabJob attentionEvaluationJob(const ModelSnapshot &model);  // `model` is the job's alone
LabJob attentionExperimentsJob(const DatasetConfig &datasetConfig, const TrainingConfig &trainingConfig,
                               const QVector<ExperimentRun> &runs, int probeMaxLength);
