#pragma once

#include "engine/core/configfield.h"
#include "engine/core/recurrentcell.h"

#include <string>
#include <vector>

// How the decoder reads the encoder's outputs (see DecoderImpl for the equations of each). Auto is
// a setting, not a variant: location for sentences read from a corpus, bahdanau for generated ones
// (resolvedFor()); a model is always built with a variant.
enum class AttentionKind { Bahdanau, LuongDot, LuongGeneral, None, Location, ScaledDot, BahdanauAfter, Auto };

// "bahdanau", "luong-dot", "luong-general", "none", "location", "scaled-dot", "bahdanau-after",
// "auto": the names on the command line and in files.
const char *attentionName(AttentionKind kind);
bool parseAttention(const std::string &name, AttentionKind *kind);
// Every variant, in the order above (Auto is none).
const std::vector<AttentionKind> &attentionKinds();
// luong-dot, luong-general and scaled-dot: scored by a product with the state after the step's
// recurrent cell, with Luong's attentional layer and input feeding (LuongAttention).
bool isMultiplicative(AttentionKind kind);
// Whether the decoder's recurrent step reads something besides the word: the context (bahdanau,
// location) or the attentional state (the multiplicative variants). none and bahdanau-after read
// the word alone.
bool stepReadsContext(AttentionKind kind);

// The pointer-generator output of See et al. 2017 (see PointerMixture): words can be copied from the
// source through the attention. Auto: on for sentences read from a corpus, off for generated ones.
enum class PointerMode { Auto, On, Off };

// Shape of the seq2seq network. With `hiddenSize` H the encoder emits H values per token
// (H/2 per direction when bidirectional) and the decoder state is H wide.
struct ModelConfig {
    int embedSize = 128;
    int hiddenSize = 256;
    RecurrentCell cell = RecurrentCell::Gru;  // the encoder's and the decoder's
    int layers = 2;
    double dropout = 0.1;
    bool bidirectional = true;
    AttentionKind attention = AttentionKind::Auto;
    PointerMode pointer = PointerMode::Auto;
    bool bridge = true;  // the decoder starts from the encoder's final states; off: from zeros

    // Whether the decoder has the pointer; Auto counts as off (a model built without knowing its
    // data: resolve it first with resolvedFor()).
    bool usesPointer() const { return pointer == PointerMode::On && attention != AttentionKind::None; }
};

// `config` with its Auto settings decided for data read from a corpus or generated. The attention:
// location for a corpus, whose long sentences Bahdanau's scores learnt slowly and unsteadily
// (docs/benchmarks.md, "Three real corpora"), bahdanau otherwise. The pointer: on for a corpus,
// off otherwise, and off for a model without attention, which has nothing to point with.
ModelConfig resolvedFor(ModelConfig config, bool corpus);

// Every field of ModelConfig: key, range, help and access (see ConfigField).
const std::vector<ConfigField<ModelConfig>> &modelConfigFields();

// Empty when valid, otherwise a message naming the offending field.
std::string validate(const ModelConfig &config);
