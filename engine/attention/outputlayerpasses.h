#pragma once

#include "engine/attention/seq2seqnet.h"
#include "engine/core/torchapi.h"

#include <cstdint>

// The output layer run over a few target steps at a time. Its activations are rows × steps × V
// floats several times over, the largest a step of training holds on a corpus (V in the
// thousands); in ranges of steps they stay within kOutputLayerFloats per range, whatever the
// batch, the sentences' length and the vocabulary.
namespace outputlayerpasses {

inline constexpr int64_t kOutputLayerFloats = int64_t(1) << 20;

// The targets of some rows of a batch from step 1 on (B, T-1), as the decoder predicts them.
struct StepTargets {
    torch::Tensor target;          // vocabulary ids
    torch::Tensor targetExtended;  // extended ids, what a pointer is trained on; undefined without one
    torch::Tensor sourceExtended;  // (B, S)
    StepTargets range(int64_t begin, int64_t end) const;  // steps [begin, end)
};

// How many steps of `rows` rows one pass of at most `floats` covers: at least one.
int64_t stepsPerPass(int64_t rows, int64_t vocabularySize, int64_t floats = kOutputLayerFloats);

// The mean token loss of `out` against `targets`: the pointer's mixture, or cross-entropy over the
// vocabulary. <PAD> positions count for nothing.
torch::Tensor meanTokenLoss(const TeacherForcedOutput &out, const StepTargets &targets);
// What the model predicts at every step of `out`, as extended ids with a pointer (B, T).
torch::Tensor predictions(const TeacherForcedOutput &out, const StepTargets &targets);

// Backward of `states`' token loss, weighted by their share `tokens / batchTokens` of the batch's
// target tokens (`tokens` the real ones in `targets`), so shards add up to the batch's mean. One
// pass when it fits, otherwise range by range, each range's gradients taken before the next
// range's output layer, then added to the weights in one backward pass through the decoder, so
// that every weight takes one sum. Gradients are those of one pass up to rounding. Returns the
// weighted loss; when it is not finite, nothing is added to the weights.
double backwardTokenLoss(Seq2SeqNet &net, const FusedDecoderWeights &w, const DecoderStates &states,
                         const StepTargets &targets, double batchTokens, int64_t floats = kOutputLayerFloats);

// A free-running pass's loss summed over its real tokens, their count, and the rows every one of
// whose real tokens is predicted: range by range, without gradients.
struct FreeRunningScore {
    double lossSum = 0;
    int64_t tokens = 0;
    int64_t exactRows = 0;
};
FreeRunningScore scoreFreeRunning(Seq2SeqNet &net, const FusedDecoderWeights &w, const DecoderStates &states,
                                  const StepTargets &targets, int64_t floats = kOutputLayerFloats);

}
