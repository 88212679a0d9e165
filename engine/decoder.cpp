#include "decoder.h"

DecoderImpl::DecoderImpl(int vocabularySize, const ModelConfig &c)
    : embedding(torch::nn::EmbeddingOptions(vocabularySize, c.embedSize).padding_idx(0))
    , dropout(c.dropout)
    , attention(c.hiddenSize, c.hiddenSize, c.hiddenSize)
    , gru(torch::nn::GRUOptions(c.embedSize + c.hiddenSize, c.hiddenSize)
              .num_layers(c.layers)
              .dropout(c.layers > 1 ? c.dropout : 0.0)
              .batch_first(true))
    , out(2 * c.hiddenSize + c.embedSize, vocabularySize)
{
    register_module("embedding", embedding);
    register_module("dropout", dropout);
    register_module("attention", attention);
    register_module("gru", gru);
    register_module("out", out);
}

DecoderStep DecoderImpl::forward(const torch::Tensor &token, const torch::Tensor &hidden,
                                 const DecoderMemory &memory)
{
    auto embedded = dropout(embedding(token));  // (B, E)
    auto [context, weights] = attention(hidden[-1], memory.keys, memory.values, memory.mask);
    auto [output, next] = gru(torch::cat({embedded, context}, 1).unsqueeze(1), hidden);
    auto logits = out(torch::cat({output.squeeze(1), context, embedded}, 1));
    return {logits, next, weights};
}
