#pragma once

#include "ui/workbench/jobcontext.h"
#include "engine/charlm/charlmconfig.h"
#include "ui/charlm/charlmresults.h"

#include <memory>

struct CharText;

// The character lab's training on the worker's thread: the n-gram baseline first, then progress per
// window (characters/s and the ETA in the status bar), each epoch's loss, a probe (weights,
// sample, memorisation) every few iterations, the end, and the units ranked on the final weights,
// as the types of ui/charlm/charlmresults.h.
LabJob charTrainingJob(std::shared_ptr<const CharText> text, const CharModelConfig &model,
                       const CharTrainingConfig &training, const CharProbeSettings &probes);

// Ranks the hidden units of `net` by how strongly each tracks a feature of the first characters of
// `text` (a readout of each, then rankUnits).
LabJob charUnitRankingJob(std::shared_ptr<const CharInferenceNet> net, std::shared_ptr<const CharText> text);


// Explains the next character after a context (explainNextCharacter); a context or option the
// engine refuses comes back as the answer's error, not as a failed job.
LabJob charAttributionJob(const CharAttributionRequest &request);
