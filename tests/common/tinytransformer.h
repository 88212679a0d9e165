#pragma once

#include "engine/transformer/transformerconfig.h"

// A Transformer shape small enough for a unit test to train or decode in milliseconds; dropout off,
// so that what the test compares is deterministic.
inline TransformerConfig tinyTransformer(int layers, int heads, int modelSize, int feedForwardSize)
{
    TransformerConfig config;
    config.layers = layers;
    config.heads = heads;
    config.modelSize = modelSize;
    config.feedForwardSize = feedForwardSize;
    config.dropout = 0;
    return config;
}
