#pragma once

#include "engine/core/sentencepair.h"

#include <functional>
#include <string>
#include <vector>

class Seq2SeqModel;

// Greedy decoding against beam search on a split: what a wider beam and length normalisation
// (score = log P / |y|^alpha) change in the outputs, as the course's exercise asks.
struct BeamSetting {
    int width = 1;  // 1 is greedy
    double alpha = 0;
};

struct BeamSettingScore {
    BeamSetting setting;
    double exactMatch = 0;     // 0..1
    double meanLogProb = 0;    // over the sentences, of log P(output) summed over its steps
    double meanLength = 0;     // output words, <EOS> not counted
    int differFromGreedy = 0;  // sentences whose output is not greedy's
};

// A sentence on which some setting's output is not greedy's.
struct BeamDisagreement {
    std::string input;
    std::string reference;
    std::vector<std::string> outputs;  // one per setting, in the settings' order
};

struct BeamEvaluation {
    std::vector<BeamSetting> settings;
    std::vector<BeamSettingScore> scores;  // one per setting
    std::vector<BeamDisagreement> disagreements;
    int sentences = 0;
};

// The course's table: greedy, then widths 2, 5 and 10 each with alpha 0, 0.6 and 1.
const std::vector<BeamSetting> &courseBeamSettings();

// "greedy" or "beam 5, alpha 0.6".
std::string beamSettingName(const BeamSetting &setting);

// A row per setting: decoding, width, alpha, exact_match, mean_log_prob, mean_length,
// differ_from_greedy (shares 0..1, full precision).
std::string beamEvaluationCsv(const BeamEvaluation &evaluation);

// Decodes every sentence of `data` with each setting (greedy first, added when `settings` lacks
// it, as the reference the others differ from). `progress(done, total)` after each sentence;
// returning false stops early (what was decoded is reported). Throws std::invalid_argument for a
// setting out of range.
BeamEvaluation evaluateBeams(const Seq2SeqModel &model, const std::vector<SentencePair> &data,
                             std::vector<BeamSetting> settings,
                             const std::function<bool(int done, int total)> &progress = {});
