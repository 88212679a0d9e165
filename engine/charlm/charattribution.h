#pragma once

#include "engine/charlm/charweights.h"

#include <optional>
#include <string>
#include <vector>

// Which past characters drive a character model's next one. For the last N characters of a
// context, f = log p(c_next | context) is explained over each character's input vector x_i (its
// embedding row, or its one-hot column when the model has no embedding), by
//   saliency (Simonyan et al. 2014):  ||df/dx_i||,
//   integrated gradients (Sundararajan et al. 2017): x_i . the mean of df/dx_i on the straight path
//   from the zero baseline x' to x, over m intervals (the trapezoidal rule, one batch of m + 1 points).
// The characters before the last N are read as they are and only set the state the N start from.

constexpr int kDefaultExplainedCharacters = 40;
constexpr int kMaxExplainedCharacters = 200;
constexpr int kDefaultCharIntegrationSteps = 64;
constexpr int kMaxCharIntegrationSteps = 1024;
constexpr int kMaxExplainedContext = 2000;  // characters read in all, the explained ones included

struct CharAttributionOptions {
    int last = kDefaultExplainedCharacters;  // N, 1..kMaxExplainedCharacters; a shorter context is explained whole
    int integrationSteps = kDefaultCharIntegrationSteps;  // m, 1..kMaxCharIntegrationSteps
    std::optional<char32_t> next;  // the character explained; none: the model's most likely one
};

// Empty when every option is in range, otherwise the message engine, UI and CLI all show.
std::string validate(const CharAttributionOptions &options);

enum class CharAttributionMethod { Saliency, IntegratedGradients };
const char *charAttributionMethodTitle(CharAttributionMethod method);  // "Saliency", "Integrated gradients"

struct CharAttribution {
    std::u32string characters;     // the explained ones: the context's last N
    int contextLength = 0;         // characters read in all
    char32_t next = 0;             // the character explained
    double probability = 0;        // p(next | context)
    char32_t predicted = 0;        // the model's most likely next character
    std::vector<double> probabilities;  // p(c | context) for each character of the alphabet, in its order
    std::vector<double> saliency;       // per explained character, never negative
    std::vector<double> integratedGradients;  // per explained character; > 0 raises p(next)
    int integrationSteps = 0;
    double logProbability = 0;          // f(x)
    double baselineLogProbability = 0;  // f(x'): the explained characters' inputs all zero
    // |sum_i IG_i - (f(x) - f(x'))|, which the completeness axiom says is 0 as m grows.
    double completenessGap = 0;
    int inputSize = 0;                  // of each x_i
    std::vector<double> gradients;      // df/dx_i at x: explained x inputSize, row-major

    const std::vector<double> &scores(CharAttributionMethod method) const
    {
        return method == CharAttributionMethod::Saliency ? saliency : integratedGradients;
    }
};

// Throws std::invalid_argument, saying what is wrong, for an empty context or one longer than
// kMaxExplainedContext, a character (of the context or the one to explain) outside the model's
// alphabet, options out of range, or weights whose sizes do not agree.
CharAttribution explainNextCharacter(const CharWeights &weights, const std::u32string &context,
                                     const CharAttributionOptions &options = {});
