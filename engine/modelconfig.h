#pragma once

#include <string>

// Shape of the seq2seq network. With `hiddenSize` H the encoder emits H values per token
// (H/2 per direction when bidirectional) and the decoder state is H wide.
struct ModelConfig {
    int embedSize = 128;
    int hiddenSize = 256;
    int layers = 2;
    double dropout = 0.1;
    bool bidirectional = true;
};

// Empty when valid, otherwise a message naming the offending field.
std::string validate(const ModelConfig &config);
