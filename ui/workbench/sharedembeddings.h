#pragma once

#include "engine/core/embeddingtable.h"

#include <QString>

#include <functional>

// Word embeddings one lab offers the others, read only when someone looks: the table is copied out
// of the model on the first call, not every epoch.
struct SharedEmbeddings {
    const void *source = nullptr;  // the same for the same weights: a reader may keep what it made of them
    std::function<EmbeddingTable()> table;
    bool lowercase = true;  // whether the words were lower-cased when the model read its text
    QString description;    // "epoch 3", "bundled default model"
};
