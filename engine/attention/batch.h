#pragma once

#include "engine/attention/sentencepair.h"
#include "engine/core/torchapi.h"
#include "engine/core/vocabulary.h"

#include <random>
#include <vector>

// Padded tensors for a group of sentences. Source: words then <EOS>; target: <SOS> words <EOS>.
struct Batch {
    torch::Tensor source;         // (B, S) int64, <PAD> after each sentence
    torch::Tensor sourceLengths;  // (B) int64, words + 1
    torch::Tensor target;         // (B, T) int64
    torch::Tensor sourceMask;     // (B, S) bool, true on real tokens
    int size() const { return int(source.size(0)); }
};

// `unknownRate`: each source word is replaced by <UNK> (in the target too) with this probability,
// so the model learns to pass unknown words through its attention.
Batch makeBatch(const std::vector<const SentencePair *> &pairs, const Vocabulary &vocabulary,
                double unknownRate = 0, std::mt19937_64 *rng = nullptr);

Batch makeSourceBatch(const std::vector<std::vector<int>> &sourceIds);

// Batches of indices into `lengths`. Sentences of similar length are grouped (within pools of 32
// batches) so little padding is computed. With `rng`, shuffled, and in rounds of 8 batches that
// each span the lengths from short to long.
std::vector<std::vector<int>> batchOrder(const std::vector<int> &lengths, int batchSize,
                                         std::mt19937_64 *rng);
