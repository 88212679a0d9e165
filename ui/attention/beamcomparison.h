#pragma once

#include "engine/attention/beamevaluation.h"
#include "ui/attention/metatypes.h"
#include "ui/workbench/jobcontext.h"

#include <QMetaType>
#include <QString>

// Greedy against beam search on a model's test split (the Beam Search page), as the worker's job
// reports it.
struct BeamProgress {
    int done = 0;  // sentences
    int total = 0;
};
struct BeamCompared {
    BeamEvaluation evaluation;
    QString problem;  // why nothing was compared; empty with an evaluation
};

Q_DECLARE_METATYPE(BeamProgress)
Q_DECLARE_METATYPE(BeamCompared)

// Decodes `model`'s test split with every course setting (courseBeamSettings()); Stop ends it
// early with what was decoded. `model` is the job's alone.
LabJob beamComparisonJob(const ModelSnapshot &model);
