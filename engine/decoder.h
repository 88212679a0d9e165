#pragma once

#include "bahdanauattention.h"
#include "modelconfig.h"
#include "torchapi.h"

// What the decoder needs from the encoder, computed once per batch.
struct DecoderMemory {
    torch::Tensor values;  // encoder outputs (B, S, H)
    torch::Tensor keys;    // W_h . values (B, S, H)
    torch::Tensor mask;    // (B, S) bool
};

struct DecoderStep {
    torch::Tensor logits;   // (B, V)
    torch::Tensor hidden;   // (layers, B, H)
    torch::Tensor weights;  // (B, S) attention
};

// One step: attend with the previous top-layer state, run the GRU on [embedding; context], and
// predict from [GRU output; context; embedding].
class DecoderImpl : public torch::nn::Module
{
public:
    DecoderImpl(int vocabularySize, const ModelConfig &config);
    DecoderStep forward(const torch::Tensor &token, const torch::Tensor &hidden, const DecoderMemory &memory);

    torch::nn::Embedding embedding{nullptr};
    torch::nn::Dropout dropout{nullptr};
    BahdanauAttention attention{nullptr};
    torch::nn::GRU gru{nullptr};
    torch::nn::Linear out{nullptr};
};
TORCH_MODULE(Decoder);
