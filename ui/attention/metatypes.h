#pragma once

#include "engine/attention/datasetconfig.h"
#include "engine/attention/evaluation.h"
#include "engine/attention/modelconfig.h"
#include "engine/attention/seq2seqmodel.h"
#include "engine/attention/trainer.h"
#include "engine/attention/trainingconfig.h"
#include "engine/core/epochstats.h"

#include <QMetaType>

#include <memory>

// A model frozen at one moment of training. Shared between the windows that show it and never
// modified, so the GUI thread can run it while the worker keeps training its own copy.
using ModelSnapshot = std::shared_ptr<const Seq2SeqModel>;

Q_DECLARE_METATYPE(DatasetConfig)
Q_DECLARE_METATYPE(ModelConfig)
Q_DECLARE_METATYPE(TrainingConfig)
Q_DECLARE_METATYPE(BatchProgress)
Q_DECLARE_METATYPE(EpochStats)
Q_DECLARE_METATYPE(TrainingOutcome)
Q_DECLARE_METATYPE(EvaluationReport)
Q_DECLARE_METATYPE(ModelSnapshot)

// The engine's plain values travel between the worker thread and the GUI in queued signals.
inline void registerMetaTypes()
{
    qRegisterMetaType<DatasetConfig>();
    qRegisterMetaType<ModelConfig>();
    qRegisterMetaType<TrainingConfig>();
    qRegisterMetaType<BatchProgress>();
    qRegisterMetaType<EpochStats>();
    qRegisterMetaType<TrainingOutcome>();
    qRegisterMetaType<EvaluationReport>();
    qRegisterMetaType<ModelSnapshot>("ModelSnapshot");
}
