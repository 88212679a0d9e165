#pragma once

#include "engine/core/datasetconfig.h"
#include "engine/core/sentencepair.h"
#include "engine/core/vocabulary.h"
#include "engine/transformer/transformermodel.h"

#include <vector>

// What one head does on a decoded sentence: the mean share of its rows' weight on a position the
// task or the sequence singles out. NaN where the head has no such rows.
struct HeadScore {
    double answer;    // cross-attention: the source word the output word must come from
    double same;      // self-attention: the query's own position
    double previous;  // self-attention: the position just before the query's
};

// Per layer and head, the cross-attention's share on the known answer (rows that emit <EOS> or
// lie past the sentence's words are left out); same and previous are NaN.
std::vector<std::vector<HeadScore>> crossHeadScores(Task task, const TransformerOutput &output);
// Per layer and head, a self-attention's shares on the same and the previous position; answer is NaN.
std::vector<std::vector<HeadScore>> selfHeadScores(const LayeredAttention &attention);

// Each head's scores over many sentences, a split's: per layer and head, the mean of its
// one-sentence scores (crossHeadScores, selfHeadScores) over the sentences where they are not NaN.
// NaN where none is.
struct SplitHeadScores {
    int sentences = 0;
    std::vector<std::vector<HeadScore>> encoderSelf;  // same and previous
    std::vector<std::vector<HeadScore>> decoderSelf;  // same and previous
    std::vector<std::vector<HeadScore>> cross;        // answer
};

// The scores of sentences already decoded (decodeWords()).
SplitHeadScores averageHeadScores(Task task, const std::vector<TransformerOutput> &outputs);
// Each pair's source decoded greedily by `inference` as decodeWords() does, then scored and
// averaged as averageHeadScores() does.
SplitHeadScores splitHeadScores(const TransformerInference &inference, const Vocabulary &vocabulary, Task task,
                                const std::vector<SentencePair> &pairs);
