#pragma once

#include "engine/attention/alignmentscore.h"
#include "engine/attention/evaluation.h"
#include "engine/attention/experiment.h"
#include "engine/attention/faithfulness.h"
#include "engine/attention/lengthreport.h"
#include "engine/attention/modelconfig.h"
#include "engine/attention/seq2seqmodel.h"
#include "engine/attention/trainer.h"
#include "engine/attention/trainingconfig.h"
#include "engine/attention/weighthistory.h"
#include "engine/core/datasetconfig.h"
#include "engine/core/epochstats.h"

#include <QMetaType>
#include <QString>

#include <memory>
#include <optional>

// A model frozen at one moment of training. Shared between the windows that show it and never
// modified, so the GUI thread can run it while the worker keeps training its own copy.
using ModelSnapshot = std::shared_ptr<const Seq2SeqModel>;

// What the attention lab's jobs report, one type per event. They reach the lab from the worker's
// thread inside a QVariant (TrainingWorker::reported).
struct EpochTrained {
    EpochStats stats;
    bool isBest = false;
    ModelSnapshot snapshot;  // the weights at the end of this epoch
    std::optional<AlignmentScore> alignment;  // on the validation set; none for a model without attention
    std::shared_ptr<const WeightHistory::Copy> weights;  // the snapshot's, as the epoch history keeps them
};
// The report of one epoch, with the copy of its weights the epoch history keeps made here, on the
// worker's thread, not on the window's.
inline EpochTrained epochTrained(const EpochStats &stats, bool isBest, const ModelSnapshot &snapshot,
                                 std::optional<AlignmentScore> alignment)
{
    std::shared_ptr<const WeightHistory::Copy> weights;
    if (snapshot)
        weights = std::make_shared<const WeightHistory::Copy>(WeightHistory::copyOf(stats.epoch, *snapshot));
    return {stats, isBest, snapshot, std::move(alignment), std::move(weights)};
}
struct TrainingFinished {
    TrainingOutcome outcome;
    ModelSnapshot best;  // null when no epoch completed
};
struct EvaluationStarted {
    int sentences = 0;
};
struct EvaluationFinished {
    EvaluationReport report;
    QString analysisMarkdown;
    LengthReport lengths;  // beside the corpus's lengths; no rows for generated sentences
};
struct ExperimentStarted {
    int index = 0;
    std::uint64_t seed = 0;  // the seed of the run's initial weights
};
struct ExperimentEpoch {
    int index = 0;
    EpochStats stats;
};
struct ExperimentFinished {
    int index = 0;
    double testExactMatch = 0;
    EvaluationReport probe;  // exact match by length; empty when no epoch completed
    ModelSnapshot best;      // the run's best epoch, to compare with others; null when no epoch completed
};
struct ExperimentsFinished {
    QString message;
};
// Measuring how faithful the methods are to a model (attentionFaithfulnessJob, and after each epoch).
struct FaithfulnessProgress {
    int epoch = 0;  // 0: a model that was opened
    int done = 0;   // sentences
    int total = 0;
};
struct FaithfulnessMeasured {
    int epoch = 0;
    FaithfulnessReport report;
    int integrationSteps = 0;  // m of integrated gradients in this measurement
    QString problem;           // why nothing was measured; empty with a report
};

Q_DECLARE_METATYPE(DatasetConfig)
Q_DECLARE_METATYPE(ModelConfig)
Q_DECLARE_METATYPE(TrainingConfig)
Q_DECLARE_METATYPE(EpochStats)
Q_DECLARE_METATYPE(TrainingOutcome)
Q_DECLARE_METATYPE(EvaluationReport)
Q_DECLARE_METATYPE(ModelSnapshot)
Q_DECLARE_METATYPE(EpochTrained)
Q_DECLARE_METATYPE(TrainingFinished)
Q_DECLARE_METATYPE(EvaluationStarted)
Q_DECLARE_METATYPE(EvaluationFinished)
Q_DECLARE_METATYPE(ExperimentStarted)
Q_DECLARE_METATYPE(ExperimentEpoch)
Q_DECLARE_METATYPE(ExperimentFinished)
Q_DECLARE_METATYPE(ExperimentsFinished)
Q_DECLARE_METATYPE(FaithfulnessProgress)
Q_DECLARE_METATYPE(FaithfulnessMeasured)

// The engine's plain values travel between the worker thread and the GUI in queued signals.
inline void registerMetaTypes()
{
    qRegisterMetaType<DatasetConfig>();
    qRegisterMetaType<ModelConfig>();
    qRegisterMetaType<TrainingConfig>();
    qRegisterMetaType<EpochStats>();
    qRegisterMetaType<TrainingOutcome>();
    qRegisterMetaType<EvaluationReport>();
    qRegisterMetaType<ModelSnapshot>("ModelSnapshot");
}
