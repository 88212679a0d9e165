#pragma once

#include "engine/attention/decoder.h"
#include "engine/attention/encoder.h"
#include "engine/attention/modelconfig.h"
#include "engine/core/parameterversions.h"
#include "engine/core/torchapi.h"

#include <functional>
#include <memory>
#include <vector>

class InferenceNet;

struct GreedyOutput {
    torch::Tensor tokens;    // (B, steps) int64; with the pointer, extended ids (see PointerMixture)
    torch::Tensor weights;   // (B, steps, S); undefined for a model without attention
    torch::Tensor copyGate;  // (B, steps): p_gen; undefined without the pointer
};

// The decoder at every target step before the output layer: what the output layer and the pointer read.
struct DecoderStates {
    torch::Tensor output;     // (B, T-1, H): the top recurrent layer
    torch::Tensor context;    // (B, T-1, H); undefined without attention
    torch::Tensor embedding;  // (B, T-1, E): the step's input
    torch::Tensor weights;    // (B, T-1, S); with the pointer only
    int64_t steps() const { return output.size(1); }
    DecoderStates range(int64_t begin, int64_t end) const;  // steps [begin, end)
    // Each tensor detached from its graph and requiring its gradient: a boundary at which the
    // output layer can run backward step range by step range before the decoder does.
    DecoderStates detachedLeaves() const;
    // Each defined tensor, in the order above.
    std::vector<torch::Tensor> tensors() const;
};

// The same, step by step as the decoder made them: each (B, ...) without the step axis. A
// backward pass from one step's tensors never enters the steps after it, as it would through the
// stacked ones.
struct DecoderStepStates {
    std::vector<torch::Tensor> output, context, embedding, weights;  // context and weights may be empty
    DecoderStates stacked() const;
    DecoderStates step(std::size_t t) const;  // step t alone, (B, 1, ...)
};

// What forward() computed for every target step.
struct TeacherForcedOutput {
    torch::Tensor logits;    // (B, T-1, V)
    torch::Tensor weights;   // (B, T-1, S); with the pointer only
    torch::Tensor copyGate;  // (B, T-1): p_gen; with the pointer only
};

// Encoder + decoder (with the attention its ModelConfig names). forward() trains with teacher forcing, greedy() decodes.
class Seq2SeqNetImpl : public torch::nn::Module
{
public:
    Seq2SeqNetImpl(int vocabularySize, const ModelConfig &config);
    ~Seq2SeqNetImpl() override;

    // The encoder's outputs as the decoder reads them, and the decoder's initial state in `start`.
    // `embedded`, when given, stands for the source's embeddings (B, S, E); `source` still marks the padding.
    DecoderMemory encode(const torch::Tensor &source, const torch::Tensor &lengths, DecoderState *start,
                         const torch::Tensor &embedded = {});
    // The predictions for target[:, 1:]. Before each step `teacherForce()` decides, for the whole
    // batch, whether the next input is the reference token or the model's own prediction (with the
    // pointer, the argmax of the extended distribution over `sourceExtended`, see Batch).
    TeacherForcedOutput forward(const torch::Tensor &source, const torch::Tensor &lengths, const torch::Tensor &target,
                                const std::function<bool()> &teacherForce, const torch::Tensor &sourceExtended = {});
    // forward() in two halves, so that the output layer, whose activations grow with the
    // vocabulary, can run over a few steps at a time: the decoder's states, then what the output
    // layer (and the pointer's gate) make of them; `w` from decoder->fusedWeights() for both.
    // `sourceEmbedded`, when given, stands for the source's embeddings (see encode()). With
    // gradients, every step teacher-forced and a decoder decoderRecurrence() takes, its states come
    // from that one node rather than step by step.
    DecoderStates decoderStates(const FusedDecoderWeights &w, const torch::Tensor &source, const torch::Tensor &lengths,
                                const torch::Tensor &target, const std::function<bool()> &teacherForce,
                                const torch::Tensor &sourceExtended = {}, const torch::Tensor &sourceEmbedded = {});
    // decoderStates() step by step, before the stacking.
    DecoderStepStates decoderStepStates(const FusedDecoderWeights &w, const torch::Tensor &source,
                                        const torch::Tensor &lengths, const torch::Tensor &target,
                                        const std::function<bool()> &teacherForce,
                                        const torch::Tensor &sourceExtended = {},
                                        const torch::Tensor &sourceEmbedded = {});
    TeacherForcedOutput outputs(const FusedDecoderWeights &w, const DecoderStates &states);
    // Attribution: every input the reference's, from source embeddings given directly (B, S, E) so
    // that their gradients can be read; the predictions of the target steps `steps` (ascending),
    // one output each (T-1 = 1), each made from its own step's states alone: a backward pass from
    // step t's prediction goes through the steps up to t and no further.
    std::vector<TeacherForcedOutput> fromEmbeddings(const torch::Tensor &sourceEmbedded, const torch::Tensor &source,
                                                    const torch::Tensor &lengths, const torch::Tensor &target,
                                                    const torch::Tensor &sourceExtended, const std::vector<int> &steps);
    // fromEmbeddings() from the encoder's result, which may have been computed apart (EncoderTape).
    std::vector<TeacherForcedOutput> fromEncoded(const EncoderOutput &encoded, const torch::Tensor &source,
                                                 const torch::Tensor &target, const torch::Tensor &sourceExtended,
                                                 const std::vector<int> &steps);
    // Decodes until every sentence has emitted <EOS> (unless `stopAtEos` is false) or `maxSteps` steps.
    // One sentence in eval mode without gradients goes through an InferenceNet: the same result in
    // a fraction of the time (bench: greedy latency). With the pointer, `sourceExtended` numbers the
    // words it can copy (undefined: the source ids).
    GreedyOutput greedy(const torch::Tensor &source, const torch::Tensor &lengths, int maxSteps, bool stopAtEos = true,
                        const torch::Tensor &sourceExtended = {});
    // The prediction of one step as extended ids (B): the argmax of the pointer's mixture, or of
    // the logits without the pointer; and p_gen when there is a pointer.
    std::pair<torch::Tensor, torch::Tensor> predict(const FusedDecoderWeights &w, const DecoderStepOutput &step,
                                                    const torch::Tensor &embedded, const torch::Tensor &sourceExtended);
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
    // encode() from the encoder's result.
    DecoderMemory memoryOf(const EncoderOutput &encoded, const torch::Tensor &source, DecoderState *start);
    // decoderStepStates() from the encoder's memory and the decoder's start; `forced[t]`: step t
    // reads the reference token (step 0 always does).
    DecoderStepStates stepStates(const FusedDecoderWeights &w, const DecoderMemory &memory, DecoderState state,
                                 const torch::Tensor &source, const torch::Tensor &target,
                                 const std::vector<bool> &forced, const torch::Tensor &sourceExtended);
    // Tosses the teacher-forcing coin for steps 1 to steps - 1, in the order a step-by-step loop would.
    static std::vector<bool> forcedSteps(int64_t steps, const std::function<bool()> &teacherForce);
    GreedyOutput greedyOne(const torch::Tensor &source, int maxSteps, bool stopAtEos,
                           const torch::Tensor &sourceExtended);

    std::unique_ptr<InferenceNet> m_inference;  // built on first use, rebuilt when a weight changes
    ParameterVersions m_inferenceVersions;
};
TORCH_MODULE(Seq2SeqNet);
