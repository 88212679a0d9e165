#pragma once

#include "engine/core/torchapi.h"

// The output distribution of a pointer-generator (See et al. 2017) over the vocabulary extended by
// each sentence's source words that it lacks: those take ids V, V+1, ... in order of first
// occurrence (sourceExtended), so the same unknown word twice in a sentence is one id.
//   P(w) = p_gen * P_vocab(w) + (1 - p_gen) * sum_{i: x_i = w} a_i
// P_vocab is softmax(logits) over the V words (0 beyond them), a the attention over source
// positions, p_gen the copy gate. Shapes: logits (B, [T,] V), weights (B, [T,] S), copyGate (B, [T]),
// sourceExtended (B, S) int64.

// The whole extended distribution, (B, [T,] E): E is V, or the largest extended id + 1 when larger.
torch::Tensor pointerDistribution(const torch::Tensor &logits, const torch::Tensor &weights, const torch::Tensor &copyGate,
                                  const torch::Tensor &sourceExtended);

// log P(target) for every position, (B, [T]): only what the loss needs, without the extended
// distribution. `target` holds extended ids, (B, [T]).
torch::Tensor pointerTargetLogProb(const torch::Tensor &logits, const torch::Tensor &weights,
                                   const torch::Tensor &copyGate, const torch::Tensor &sourceExtended,
                                   const torch::Tensor &target);

// Mean of -log P(target) over the positions whose target is not <PAD>.
torch::Tensor maskedPointerLoss(const torch::Tensor &logits, const torch::Tensor &weights, const torch::Tensor &copyGate,
                                const torch::Tensor &sourceExtended, const torch::Tensor &target);

// Extended ids as decoder input: a copied word the vocabulary lacks is read as <UNK>.
torch::Tensor vocabularyIds(const torch::Tensor &extendedIds, int64_t vocabularySize);
