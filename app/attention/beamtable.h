#pragma once

#include "engine/attention/beamevaluation.h"

#include <QString>

// evaluate --beam / --beams: the settings side by side, then the first `examples` sentences on
// which a setting's output is not greedy's.
std::string beamEvaluationText(const BeamEvaluation &evaluation, int examples);
// Every figure and every disagreement, indented JSON.
QString beamEvaluationJson(const BeamEvaluation &evaluation);
