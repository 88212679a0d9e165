#pragma once

#include "engine/core/configfield.h"

#include <cstdint>
#include <string>
#include <vector>

// How the Transformer knows where a token is: fixed sines and cosines of the position (Vaswani et
// al. 2017, 3.5), or a vector learned per position.
enum class PositionEncoding { Sinusoidal, Learned };

// Shape of the encoder-decoder Transformer. The shape is the measuring stick's
// (shared/bench/transformer_reference.py): 2 + 2 pre-LN layers, 4 heads, d_model 128. Its dropout
// of 0.1 is not: on sentences drawn afresh from a word list there is nothing to overfit, and
// without it validation stops swinging and reaches 99% in 7 epochs instead of none of 10.
struct TransformerConfig {
    int layers = 2;  // encoder layers, and as many decoder layers
    int heads = 4;
    int modelSize = 128;  // d_model: every token's vector between the layers
    int feedForwardSize = 512;
    double dropout = 0;
    bool preNorm = true;  // layer norm before each sublayer; off: after the residual (the 2017 paper)
    PositionEncoding positions = PositionEncoding::Sinusoidal;
    int maxPositions = 256;  // the longest sequence the positions reach
};

// Every field of TransformerConfig: key, range, help and access (see ConfigField).
const std::vector<ConfigField<TransformerConfig>> &transformerConfigFields();

// Empty when valid, otherwise a message naming the offending field.
std::string validate(const TransformerConfig &config);

// The number of weights a network of `config` over `vocabularySize` words has, worked out from the
// sizes alone: a file's claim can be checked before anything that large is allocated.
int64_t transformerParameterCount(const TransformerConfig &config, int vocabularySize);
