#pragma once

#include <functional>
#include <string>
#include <vector>

// Beam search over any model that gives next-token log-probabilities, with length normalisation:
// score(y) = (1 / |y|^alpha) * sum_t log P(y_t | y_<t), |y| counting the final <EOS>.
// Torch-free, so the UI can hold its results.

constexpr int kMaxBeamWidth = 64;
constexpr double kMaxLengthAlpha = 2.0;

struct BeamOptions {
    int width = 1;       // hypotheses kept per step; 1 is greedy decoding
    double alpha = 0.6;  // length normalisation: 0 none, 1 the mean log-probability per token
    int nbest = 1;       // hypotheses returned, best first; at most `width`
};

// Empty when valid, otherwise a message naming the offending field.
std::string validate(const BeamOptions &options);

// A finished hypothesis: it ends in <EOS>, or it reached the maximum length.
struct BeamHypothesis {
    std::vector<int> tokens;       // without <SOS>
    double logProb = 0;            // sum of log P(y_t | y_<t)
    double score = 0;              // logProb / |y|^alpha
    std::vector<float> attention;  // tokens.size() rows of the model's attention width; empty without attention
    std::vector<float> copyGate;   // p_gen per token; empty without a pointer
};

// A hypothesis as it stood when a step kept it.
struct BeamStepEntry {
    std::vector<int> tokens;
    double logProb = 0;
    double score = 0;
    bool finished = false;  // ended in <EOS> at this step
};

// What one step kept: the `width` best extensions (fewer once some have finished).
struct BeamStep {
    std::vector<BeamStepEntry> kept;
};

struct BeamResult {
    std::vector<BeamHypothesis> nbest;  // best score first; empty only if no continuation had a finite log-probability
    std::vector<BeamStep> steps;
};

// What the model says about the next token of each live hypothesis.
struct BeamScores {
    std::vector<float> logProbs;   // rows x vocabulary size (a pointer's extended one), row-major
    std::vector<float> attention;  // rows x attention width, row-major; empty without attention
    std::vector<float> copyGate;   // rows: p_gen of a pointer model; empty without one
};

// Advances the model one step for the live hypotheses. Row i extends row parents[i] of the
// previous call, so the model reorders its per-row state by `parents` before the step; its last
// token is lastTokens[i]. The first call has one row (parent 0, last token <SOS>).
using BeamStepFunction =
    std::function<BeamScores(const std::vector<int> &parents, const std::vector<int> &lastTokens)>;

// Runs at most `maxLength` steps. Throws std::invalid_argument for invalid options or a
// maxLength below 1.
BeamResult beamSearch(const BeamStepFunction &step, const BeamOptions &options, int maxLength);
