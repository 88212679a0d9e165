#pragma once

#include "engine/transformer/decoderlayer.h"
#include "engine/transformer/encoderlayer.h"
#include "engine/transformer/transformerconfig.h"

#include <vector>

// Every layer's attention weights from one pass, one tensor per layer.
struct TransformerAttention {
    std::vector<torch::Tensor> encoderSelf;  // (B, h, S, S)
    std::vector<torch::Tensor> decoderSelf;  // (B, h, T, T)
    std::vector<torch::Tensor> cross;        // (B, h, T, S)
};

// The encoder's output and the source's padding as an additive mask, read by every decoder layer.
struct EncodedSource {
    torch::Tensor memory;    // (B, S, d)
    torch::Tensor maskBias;  // (B, 1, 1, S): 0 on real tokens, -inf on padding
};

// The encoder-decoder Transformer (Vaswani et al. 2017): token embeddings scaled by sqrt(d_model)
// plus positions, N encoder and N decoder layers, a final layer norm on each side when the layers
// are pre-LN, and a linear output over the vocabulary. Every matrix starts Xavier-uniform.
class TransformerNetImpl : public torch::nn::Module
{
public:
    TransformerNetImpl(const TransformerConfig &config, int vocabularySize);

    // source (B, S) and targetIn (B, T) are ids, <PAD> after each sentence; sourceMask (B, S) is true
    // on real tokens. Returns the logits (B, T, V) of the token after each target position.
    torch::Tensor forward(const torch::Tensor &source, const torch::Tensor &sourceMask, const torch::Tensor &targetIn,
                          TransformerAttention *attention = nullptr);
    EncodedSource encode(const torch::Tensor &source, const torch::Tensor &sourceMask,
                         TransformerAttention *attention = nullptr);
    // encode() from the source's token embeddings (B, S, d), before the sqrt(d_model) scale, in
    // place of its ids: a path for gradients to reach each word's embedding.
    EncodedSource encodeEmbeddings(const torch::Tensor &tokenEmbeddings, const torch::Tensor &sourceMask,
                                   TransformerAttention *attention = nullptr);
    // Teacher-forced: every target position at once, each seeing only those before it.
    torch::Tensor decode(const EncodedSource &source, const torch::Tensor &targetIn,
                         TransformerAttention *attention = nullptr);
    // One generated position: `tokens` (B) at `position`, against `caches` (one per decoder layer,
    // empty at the first step), which it extends. Returns the logits (B, V); `attention` gets this
    // step's weights, (B, h, 1, position + 1) and (B, h, 1, S) per layer.
    torch::Tensor decodeStep(const EncodedSource &source, const torch::Tensor &tokens, int position,
                             std::vector<DecoderLayerCache> &caches, TransformerAttention *attention = nullptr);

    const TransformerConfig &config() const { return m_config; }
    int vocabularySize() const { return m_vocabularySize; }

    torch::nn::Embedding sourceEmbedding{nullptr};
    torch::nn::Embedding targetEmbedding{nullptr};
    torch::nn::Embedding learnedPositions{nullptr};  // PositionEncoding::Learned only
    torch::Tensor sinusoidalPositions;                // (maxPositions, d), a buffer; Sinusoidal only
    torch::nn::ModuleList encoderLayers{nullptr};
    torch::nn::ModuleList decoderLayers{nullptr};
    torch::nn::LayerNorm encoderNorm{nullptr};  // pre-LN only
    torch::nn::LayerNorm decoderNorm{nullptr};  // pre-LN only
    torch::nn::Linear output{nullptr};

private:
    // Token embeddings (B, L, d) times sqrt(d_model) plus the positions from `first` on, with dropout.
    torch::Tensor positioned(const torch::Tensor &tokenEmbeddings, int first);

    TransformerConfig m_config;
    int m_vocabularySize;
};
TORCH_MODULE(TransformerNet);

// The fixed encoding of positions 0..count-1: sin and cos of pos / 10000^(2i/d) in turn.
torch::Tensor sinusoidalEncoding(int count, int width);
// (T, T): 0 on and below the diagonal, -inf above it, so no position sees a later one.
torch::Tensor causalMaskBias(int64_t length);
// (B, 1, 1, S) from a (B, S) mask that is true on real tokens.
torch::Tensor paddingMaskBias(const torch::Tensor &mask);
