#pragma once

#include "engine/core/datasetconfig.h"
#include "engine/transformer/transformerconfig.h"
#include "engine/transformer/transformertrainingconfig.h"
#include "ui/workbench/jobcontext.h"

// The Transformer lab's training on the worker's thread: the sentences built, then progress per
// batch (sentences/s and the ETA in the status bar), each epoch's losses with a snapshot of its
// weights, and the end with the best epoch's score on the test split, as the types of
// ui/transformer/transformerresults.h. Data or settings the engine refuses end the job with its
// message.
LabJob transformerTrainingJob(const DatasetConfig &data, const TransformerConfig &model,
                              const TransformerTrainingConfig &training);
