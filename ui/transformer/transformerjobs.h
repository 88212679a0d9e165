#pragma once

#include "engine/core/datasetconfig.h"
#include "engine/transformer/transformerconfig.h"
#include "engine/transformer/transformertrainingconfig.h"
#include "ui/workbench/jobcontext.h"

#include <atomic>
#include <memory>

struct TransformerSnapshot;

// The faithfulness of the attribution methods is measured on this many test sentences, integrated
// gradients in fewer steps than a typed sentence's, so a measurement after each epoch stays short.
constexpr int kTransformerFaithfulnessSentences = 24;
constexpr int kTransformerFaithfulnessIntegrationSteps = 16;

// The Transformer lab's training on the worker's thread: the sentences built, then progress per
// batch (sentences/s and the ETA in the status bar), each epoch's losses with a snapshot of its
// weights, and the end with the best epoch's score on the test split, as the types of
// ui/transformer/transformerresults.h. Data or settings the engine refuses end the job with its
// message. After each epoch the methods' faithfulness is measured while `measureFaithfulness` is set
// (the Faithfulness page has been looked at).
LabJob transformerTrainingJob(const DatasetConfig &data, const TransformerConfig &model,
                              const TransformerTrainingConfig &training,
                              std::shared_ptr<const std::atomic<bool>> measureFaithfulness = nullptr);
// The faithfulness of `snapshot`'s model on the test split of `data`, reported as epoch 0 with its
// progress; `abandoned` set ends it early and unreported (training began, or another model was
// opened), so the worker's queue does not wait for a measurement nobody sees.
LabJob transformerFaithfulnessJob(std::shared_ptr<const TransformerSnapshot> snapshot, const DatasetConfig &data,
                                  std::shared_ptr<const std::atomic<bool>> abandoned);
