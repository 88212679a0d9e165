#include "engine/attention/modelconfig.h"

#include <utility>

namespace {
constexpr std::pair<AttentionKind, const char *> kAttentionNames[] = {{AttentionKind::Bahdanau, "bahdanau"},
                                                                      {AttentionKind::LuongDot, "luong-dot"},
                                                                      {AttentionKind::LuongGeneral, "luong-general"},
                                                                      {AttentionKind::None, "none"},
                                                                      {AttentionKind::Location, "location"},
                                                                      {AttentionKind::ScaledDot, "scaled-dot"},
                                                                      {AttentionKind::BahdanauAfter, "bahdanau-after"},
                                                                      {AttentionKind::Auto, "auto"}};

std::vector<std::string> attentionNames()
{
    std::vector<std::string> names;
    for (const auto &[kind, name] : kAttentionNames)
        names.push_back(name);
    return names;
}
}

const std::vector<AttentionKind> &attentionKinds()
{
    static const std::vector<AttentionKind> kinds = [] {
        std::vector<AttentionKind> all;
        for (const auto &[kind, name] : kAttentionNames)
            if (kind != AttentionKind::Auto)
                all.push_back(kind);
        return all;
    }();
    return kinds;
}

bool stepReadsContext(AttentionKind kind)
{
    return kind != AttentionKind::None && kind != AttentionKind::BahdanauAfter;
}

bool isMultiplicative(AttentionKind kind)
{
    return kind == AttentionKind::LuongDot || kind == AttentionKind::LuongGeneral || kind == AttentionKind::ScaledDot;
}

const char *attentionName(AttentionKind kind)
{
    for (const auto &[k, name] : kAttentionNames)
        if (k == kind)
            return name;
    return "bahdanau";
}

bool parseAttention(const std::string &name, AttentionKind *kind)
{
    for (const auto &[k, n] : kAttentionNames)
        if (name == n) {
            *kind = k;
            return true;
        }
    return false;
}

const std::vector<ConfigField<ModelConfig>> &modelConfigFields()
{
    static const std::vector<ConfigField<ModelConfig>> fields = {
        integerField<&ModelConfig::embedSize>("embed", "embedding size", 1, 4096,
                                              "Length of the vector learned for each word: larger vectors tell more "
                                              "words apart but train more slowly."),
        integerField<&ModelConfig::hiddenSize>("hidden", "hidden size", 2, 4096,
                                               "Width of the recurrent state, how much the encoder can remember "
                                               "about the sentence; even for a bidirectional encoder."),
        choiceField<&ModelConfig::cell>("cell", "cell", cellNames(),
                                        "The recurrent cell of the encoder and the decoder: a GRU, a plain tanh "
                                        "RNN (h = tanh(W x + U h + b), the course's digits exercise) or an LSTM, "
                                        "whose cell state the bridge passes to the decoder as it is."),
        integerField<&ModelConfig::layers>("layers", "layers", 1, 8,
                                           "Stacked recurrent layers in the encoder and in the decoder."),
        realField<&ModelConfig::dropout>("dropout", "dropout", 0, 0.95, 0.05,
                                         "Share of activations zeroed between recurrent layers while training, "
                                         "against overfitting; no effect with one layer."),
        flagField<&ModelConfig::bidirectional>("bidirectional", "bidirectional encoder",
                                               "Read the sentence in both directions, so every position knows the "
                                               "words on either side of it."),
        choiceField<&ModelConfig::attention>(
            "attention", "attention", attentionNames(),
            "How the decoder reads the encoder: additive scores (bahdanau), multiplicative ones (luong-dot, "
            "luong-general), only the encoder's final state (none), additive scores that also read where "
            "the previous step looked (location), the dot product divided by the square root of the hidden "
            "size (scaled-dot, the Transformer's score), or additive scores taken with the state after the "
            "step, the output read from that state and the context (bahdanau-after, the course's digits "
            "exercise). auto: location for a corpus file, bahdanau for the generated word list."),
        choiceField<&ModelConfig::pointer>(
            "pointer", "pointer (copy words)", {"auto", "on", "off"},
            "Let the decoder copy a source word by pointing at it with its attention, mixed with its own "
            "word choice by a learned gate (See et al. 2017): any word can be reversed, even one never seen "
            "in training. auto: on for a corpus file, off for the generated word list."),
        flagField<&ModelConfig::bridge>("bridge", "start the decoder from the encoder",
                                        "Start the decoder from the encoder's final states, through a tanh layer "
                                        "(the bridge). Off: from zeros, so all the decoder learns of the sentence "
                                        "comes through attention."),
    };
    return fields;
}

ModelConfig resolvedFor(ModelConfig config, bool corpus)
{
    if (config.attention == AttentionKind::Auto)
        config.attention = corpus ? AttentionKind::Location : AttentionKind::Bahdanau;
    if (config.pointer == PointerMode::Auto)
        config.pointer = corpus ? PointerMode::On : PointerMode::Off;
    if (config.attention == AttentionKind::None)
        config.pointer = PointerMode::Off;
    return config;
}

std::string validate(const ModelConfig &c)
{
    std::string problem = checkFields(c, modelConfigFields());
    if (problem.empty() && c.bidirectional && c.hiddenSize % 2 != 0)
        problem = "hidden size must be even for a bidirectional encoder (got " + std::to_string(c.hiddenSize) + ")";
    if (problem.empty() && !c.bridge && c.attention == AttentionKind::None)
        problem = "with attention none the decoder reads the sentence only through the bridge: choose an "
                  "attention variant or keep the bridge on";
    if (problem.empty() && c.pointer == PointerMode::On && c.attention == AttentionKind::None)
        problem = "the pointer copies through the attention, and attention none has none: choose an attention "
                  "variant or pointer off";
    return problem;
}
