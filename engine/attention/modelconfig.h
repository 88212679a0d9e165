#pragma once

#include "engine/core/configfield.h"

#include <string>
#include <vector>

// How the decoder reads the encoder's outputs (see DecoderImpl for the equations of each).
enum class AttentionKind { Bahdanau, LuongDot, LuongGeneral, None, Location };

// "bahdanau", "luong-dot", "luong-general", "none", "location": the names on the command line and in files.
const char *attentionName(AttentionKind kind);
bool parseAttention(const std::string &name, AttentionKind *kind);

// Shape of the seq2seq network. With `hiddenSize` H the encoder emits H values per token
// (H/2 per direction when bidirectional) and the decoder state is H wide.
struct ModelConfig {
    int embedSize = 128;
    int hiddenSize = 256;
    int layers = 2;
    double dropout = 0.1;
    bool bidirectional = true;
    AttentionKind attention = AttentionKind::Bahdanau;
};

// Every field of ModelConfig: key, range, help and access (see ConfigField).
const std::vector<ConfigField<ModelConfig>> &modelConfigFields();

// Empty when valid, otherwise a message naming the offending field.
std::string validate(const ModelConfig &config);
