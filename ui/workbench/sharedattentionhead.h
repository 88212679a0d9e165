#pragma once

#include "engine/core/attentionhead.h"

#include <QString>

// One trained self-attention head on one sentence that a lab offers the others: its input rows, its
// projections with their biases, and the words the rows stand for.
struct SharedAttentionHead {
    AttentionHead head;
    QString description;  // where it came from: "Transformer layer 1, head 3, epoch 4"
};
