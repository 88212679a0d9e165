#pragma once

#include "engine/transformer/transformerinference.h"

#include <vector>

// A rows x columns matrix of shares, row-major; each row sums to 1.
struct RolloutMatrix {
    int rows = 0;
    int columns = 0;
    std::vector<float> values;
    float at(int row, int column) const
    {
        return values[std::size_t(row) * std::size_t(columns) + std::size_t(column)];
    }
};

// One layer's attention with its heads averaged, a rows x columns matrix whose rows sum to 1 as each
// head's do: the last decoder layer's cross-attention so averaged is the Transformer's nearest to the
// one attention matrix of an RNN. Throws std::invalid_argument for a layer the attention lacks or
// weights of the wrong size.
RolloutMatrix layerHeadMean(const LayeredAttention &attention, int layer);

// Attention rollout (Abnar & Zuidema 2020, "Quantifying Attention Flow in Transformers"): how much
// of a position's vector after the last layer flows from each input token. A layer's attention,
// its heads averaged, moves only half of what reaches the next layer; the residual connection
// carries the rest unchanged, so each layer is taken as A' = 0.5 A + 0.5 I, rows renormalised, and
// the layers compose by products, the last on the left: R = A'_L ... A'_1.

// Rollout of a self-attention, the encoder's (source x source) or the decoder's (output x
// output). Throws std::invalid_argument for a matrix that is not square or weights of the wrong size.
RolloutMatrix selfAttentionRollout(const LayeredAttention &attention);

// How much each output position draws on each source word through all layers (output x source).
// A decoder position's vector is followed as a mix of the input tokens on both sides, M = [on the
// target tokens | on the source words], from [I | 0]. In each decoder layer the self-attention
// mixes the positions, M <- S' M (S' as above), and the cross-attention adds the encoder's output,
// whose mix of source words is the encoder's rollout E, half and half with the residual:
// M <- 0.5 M + 0.5 [0 | C E], C the layer's cross-attention, heads averaged. The feed-forward
// sublayers work per position and mix nothing. M's source part is the result, its rows
// renormalised: they sum to 1 - 0.5^L whatever the weights, as each layer halves the target part.
// encoderSelf, decoderSelf and cross are one decoded sentence's (DecodedIds, TransformerOutput).
// Throws std::invalid_argument when their shapes do not fit together.
RolloutMatrix crossAttentionRollout(const LayeredAttention &encoderSelf, const LayeredAttention &decoderSelf,
                                    const LayeredAttention &cross);
