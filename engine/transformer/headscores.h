#pragma once

#include "engine/core/datasetconfig.h"
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
