#pragma once

#include "engine/core/beamsearch.h"

#include <QString>

#include <functional>
#include <string>
#include <vector>

// What a beam search found, in words, for BeamView: each lab fills it from its own engine's result.
struct BeamListing {
    struct Hypothesis {
        QString output;
        double logProb = 0;  // sum of log P(y_t | y_<t)
        double score = 0;    // logProb / |y|^alpha
    };
    // A hypothesis as one step kept it.
    struct Kept {
        QString words;
        double score = 0;
        bool finished = false;       // ended in <EOS> at this step
        bool onWinnersPath = false;  // the winner's first tokens
    };
    std::vector<Hypothesis> nbest;         // best score first
    std::vector<std::vector<Kept>> steps;  // what each step kept
    double alpha = 0;
    QString note;  // shown under the summary: what choosing a hypothesis does, if anything
};

// The steps of a beam search in words, `word` naming a token id; the entries that `winner`'s
// tokens begin with are on its path.
std::vector<std::vector<BeamListing::Kept>> keptSteps(const std::vector<BeamStep> &steps,
                                                      const std::vector<int> &winner,
                                                      const std::function<std::string(int)> &word);
