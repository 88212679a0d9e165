#pragma once

#include "engine/attention/decoder.h"
#include "engine/attention/encoder.h"
#include "engine/attention/modelconfig.h"
#include "engine/core/parameterversions.h"
#include "engine/core/torchapi.h"

#include <functional>
#include <memory>

class InferenceNet;

struct GreedyOutput {
    torch::Tensor tokens;   // (B, steps) int64
    torch::Tensor weights;  // (B, steps, S); undefined for a model without attention
};

// Encoder + decoder (with the attention its ModelConfig names). forward() trains with teacher forcing, greedy() decodes.
class Seq2SeqNetImpl : public torch::nn::Module
{
public:
    Seq2SeqNetImpl(int vocabularySize, const ModelConfig &config);
    ~Seq2SeqNetImpl() override;

    DecoderMemory encode(const torch::Tensor &source, const torch::Tensor &lengths, torch::Tensor *hidden);
    // Logits (B, T-1, V) for target[:, 1:]. Before each step `teacherForce()` decides, for the
    // whole batch, whether the next input is the reference token or the model's own prediction.
    torch::Tensor forward(const torch::Tensor &source, const torch::Tensor &lengths, const torch::Tensor &target,
                          const std::function<bool()> &teacherForce);
    // Decodes until every sentence has emitted <EOS> (unless `stopAtEos` is false) or `maxSteps` steps.
    // One sentence in eval mode without gradients goes through an InferenceNet: the same result in
    // a fraction of the time (bench: greedy latency).
    GreedyOutput greedy(const torch::Tensor &source, const torch::Tensor &lengths, int maxSteps, bool stopAtEos = true);
    // Builds that InferenceNet for the current weights now, if this net has its shape, instead of
    // in the first one-sentence greedy() after them. Not thread-safe.
    void prepareInference();
    bool inferenceIsCurrent() const;
    // That InferenceNet for the current weights (built now if they changed), or nullptr when this
    // net has not its shape; for one sentence in eval mode without gradients. Not thread-safe.
    InferenceNet *inference();

    Encoder encoder{nullptr};
    Decoder decoder{nullptr};

private:
    GreedyOutput greedyOne(const torch::Tensor &source, int maxSteps, bool stopAtEos);

    std::unique_ptr<InferenceNet> m_inference;  // built on first use, rebuilt when a weight changes
    ParameterVersions m_inferenceVersions;
};
TORCH_MODULE(Seq2SeqNet);
