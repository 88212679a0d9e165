#pragma once

#include "engine/attention/alignmentscore.h"
#include "engine/core/datasetconfig.h"
#include "engine/core/epochstats.h"
#include "engine/core/sentencepair.h"

#include <map>
#include <string>
#include <vector>

class Seq2SeqModel;
struct EvaluationReport;

// Where the attention of a model looks, measured over a set of sentences.
struct AttentionAnalysis {
    Task task = Task::Reverse;
    bool hasAttention = true;          // false for a model without attention: nothing else is measured
    int sentences = 0;
    int wordSteps = 0;                 // decoder steps that emit a word (not <EOS>)
    double alignedShare = 0;           // of word steps, argmax on the mirrored (or same) source word
    double meanMaxWeight = 0;          // mean of the largest weight per word step
    double meanEntropyBits = 0;        // mean attention entropy per word step
    double meanUniformEntropyBits = 0; // what uniform attention would give on the same steps
    double firstStepOnExpected = 0;    // first step: share whose argmax is the expected word
    double firstStepMeanWeight = 0;    // first step: mean weight on the expected word
    double eosStepOnSourceEos = 0;     // final <EOS> step: share whose argmax is the source <EOS>
    double eosStepMeanWeightOnEos = 0;
    double eosStepMeanWeightOnFirstWord = 0;
    double diagonalShareForReverse = 0; // control: argmax on the unmirrored position (middle words excluded)
    // Whether the emitted word is right, split by where the step's strongest weight falls: on the
    // source word it must output (aligned) or elsewhere. Word steps only.
    int alignedSteps = 0;
    int alignedRight = 0;
    int otherSteps = 0;
    int otherRight = 0;
    double meanRightWeight = 0;        // mean weight on the source word the step must output
    double otherRightWeight = 0;       // the same over the steps that look elsewhere
    struct ByLength {
        int sentences = 0;
        double alignedShare = 0;
        double meanEntropyBits = 0;
    };
    std::map<int, ByLength> byLength;  // by source length in words
};

AttentionAnalysis analyseAttention(const Seq2SeqModel &model, const std::vector<SentencePair> &data,
                                   Task task);

// The share both alignment accuracy and exact match are followed to over training.
constexpr double kAlignmentMilestone = 0.9;

// analysis.md: the four questions answered with the numbers above. Given a training run's epochs
// and the alignment measured after each (`alignment`, by epoch), question 2 also says at which
// epoch alignment accuracy and validation exact match first reached kAlignmentMilestone.
std::string analysisMarkdown(const AttentionAnalysis &analysis, const EvaluationReport &report,
                             const std::vector<EpochStats> &history = {},
                             const std::vector<EpochAlignment> &alignment = {});
