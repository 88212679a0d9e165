#pragma once

#include "app/jobcontext.h"
#include "ui/attention/metatypes.h"

#include <QVector>

class AttentionLab;
class RunState;
class TrainingWorker;

// The attention lab's work on the worker's thread; each reports the result types of
// ui/attention/metatypes.h.
LabJob attentionTrainingJob(const DatasetConfig &datasetConfig, const ModelConfig &modelConfig,
                            const TrainingConfig &trainingConfig);
LabJob attentionEvaluationJob(const ModelSnapshot &model);  // `model` is the job's alone
LabJob attentionExperimentsJob(const DatasetConfig &datasetConfig, const TrainingConfig &trainingConfig,
                               const QVector<ExperimentRun> &runs, int probeMaxLength);

// Turns the lab's requests into jobs for `worker` and hands it the worker's reports.
void connectAttentionLab(AttentionLab *lab, TrainingWorker *worker);
