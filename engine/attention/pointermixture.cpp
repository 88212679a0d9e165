#include "engine/attention/pointermixture.h"

#include "engine/core/vocabulary.h"

#include <algorithm>

namespace {

// sourceExtended shaped like `weights`: (B, S), or (B, T, S) for a sequence of steps.
torch::Tensor sourceIdsLike(const torch::Tensor &sourceExtended, const torch::Tensor &weights)
{
    return weights.dim() == 3 ? sourceExtended.unsqueeze(1).expand(weights.sizes()) : sourceExtended;
}

// A probability of exactly zero (a target neither in the vocabulary nor in the source, under a
// gate saturated at 1) would give an infinite loss: it is floored instead.
constexpr double kSmallestProbability = 1e-12;

}

torch::Tensor pointerDistribution(const torch::Tensor &logits, const torch::Tensor &weights, const torch::Tensor &copyGate,
                                  const torch::Tensor &sourceExtended)
{
    const int64_t vocabularySize = logits.size(-1);
    const int64_t extendedSize = std::max(vocabularySize, sourceExtended.max().item<int64_t>() + 1);
    const auto gate = copyGate.unsqueeze(-1);
    auto sizes = logits.sizes().vec();
    sizes.back() = extendedSize - vocabularySize;
    auto distribution = torch::cat({torch::softmax(logits, -1) * gate, torch::zeros(sizes, logits.options())}, -1);
    return distribution.scatter_add(-1, sourceIdsLike(sourceExtended, weights), weights * (1 - gate));
}

torch::Tensor pointerTargetLogProb(const torch::Tensor &logits, const torch::Tensor &weights,
                                   const torch::Tensor &copyGate, const torch::Tensor &sourceExtended,
                                   const torch::Tensor &target)
{
    const int64_t vocabularySize = logits.size(-1);
    const auto inVocabulary = target < vocabularySize;
    const auto vocabularyTarget = target.masked_fill(inVocabulary.logical_not(), Vocabulary::kUnk).unsqueeze(-1);
    const auto generated = torch::log_softmax(logits, -1).gather(-1, vocabularyTarget).squeeze(-1).exp() * inVocabulary;
    const auto pointedAt = sourceIdsLike(sourceExtended, weights) == target.unsqueeze(-1);
    const auto copied = (weights * pointedAt).sum(-1);
    return (copyGate * generated + (1 - copyGate) * copied).clamp_min(kSmallestProbability).log();
}

torch::Tensor maskedPointerLoss(const torch::Tensor &logits, const torch::Tensor &weights, const torch::Tensor &copyGate,
                                const torch::Tensor &sourceExtended, const torch::Tensor &target)
{
    const auto real = (target != Vocabulary::kPad).to(logits.scalar_type());
    const auto logProb = pointerTargetLogProb(logits, weights, copyGate, sourceExtended, target);
    return -(logProb * real).sum() / real.sum().clamp_min(1);
}

torch::Tensor vocabularyIds(const torch::Tensor &extendedIds, int64_t vocabularySize)
{
    return extendedIds.masked_fill(extendedIds >= vocabularySize, Vocabulary::kUnk);
}
