#pragma once

#include "decoder.h"
#include "encoder.h"
#include "modelconfig.h"
#include "torchapi.h"

#include <functional>

struct GreedyOutput {
    torch::Tensor tokens;   // (B, steps) int64
    torch::Tensor weights;  // (B, steps, S); undefined for a model without attention
};

// Encoder + decoder (with the attention its ModelConfig names). forward() trains with teacher forcing, greedy() decodes.
class Seq2SeqNetImpl : public torch::nn::Module
{
public:
    Seq2SeqNetImpl(int vocabularySize, const ModelConfig &config);

    DecoderMemory encode(const torch::Tensor &source, const torch::Tensor &lengths, torch::Tensor *hidden);
    // Logits (B, T-1, V) for target[:, 1:]. Before each step `teacherForce()` decides, for the
    // whole batch, whether the next input is the reference token or the model's own prediction.
    torch::Tensor forward(const torch::Tensor &source, const torch::Tensor &lengths, const torch::Tensor &target,
                          const std::function<bool()> &teacherForce);
    // Decodes until every sentence has emitted <EOS> (unless `stopAtEos` is false) or `maxSteps` steps.
    GreedyOutput greedy(const torch::Tensor &source, const torch::Tensor &lengths, int maxSteps, bool stopAtEos = true);

    Encoder encoder{nullptr};
    Decoder decoder{nullptr};
};
TORCH_MODULE(Seq2SeqNet);
