#pragma once

#include "engine/attention/decodedsentence.h"
#include "engine/core/dataset.h"
#include "engine/core/datasetconfig.h"
#include "engine/core/sentencepair.h"

#include <vector>

class Seq2SeqModel;

// How well attention matches the alignment a task demands. For reverse and copy the source word
// each output word must come from is known: output step t of an n-word sentence comes from source
// position n-1-t (reverse) or t (copy). Only steps that have such a word count: a step that emits
// <EOS> (early or last) and words past the n-th are left out, and reference words an output too
// short never reached have no attention row to score, so the score says where the model looked
// while writing words, apart from whether it wrote the right number of them (exact match says that).
struct AlignmentScore {
    int steps = 0;           // output word steps with a right source word
    int alignedSteps = 0;    // of those, the right word's weight is larger than every other's (ties: not aligned)
    double rightWeight = 0;  // sum over the steps of the weight on the right word

    double accuracy() const;         // alignedSteps / steps; NaN without steps
    double meanRightWeight() const;  // rightWeight / steps; NaN without steps
    AlignmentScore &operator+=(const AlignmentScore &other);
};

// The alignment score of one epoch of a training run, on its validation sentences.
struct EpochAlignment {
    int epoch = 0;
    AlignmentScore score;
};

// Per output row of `sentence`: the right source column, or -1 for rows that are not scored
// (<EOS> steps, words past the sentence's length). The source's own <EOS> is the last column.
std::vector<int> rightSourcePositions(Task task, const DecodedSentence &sentence);

// Scores decoded sentences; a sentence without attention adds nothing.
AlignmentScore scoreAlignment(Task task, const DecodedSentence &sentence);
AlignmentScore scoreAlignment(Task task, const std::vector<DecodedSentence> &sentences);

// Decodes `data` greedily in padded batches (as evaluate() does, on two threads) and scores the
// attention. Only for models with attention (Seq2SeqModel::hasAttention()); throws
// std::invalid_argument otherwise, since a model that has no attention has no alignment.
AlignmentScore measureAlignment(const Seq2SeqModel &model, const std::vector<SentencePair> &data, Task task);
