#pragma once

#include "engine/core/sentencepair.h"
#include "engine/core/torchapi.h"
#include "engine/core/vocabulary.h"

#include <random>
#include <string>
#include <vector>

// Padded tensors for a group of sentences. Source: words then <EOS>; target: <SOS> words <EOS>.
struct Batch {
    torch::Tensor source;         // (B, S) int64, <PAD> after each sentence
    torch::Tensor sourceLengths;  // (B) int64, words + 1
    torch::Tensor target;         // (B, T) int64
    torch::Tensor sourceMask;     // (B, S) bool, true on real tokens
    // As source and target, with the words the vocabulary lacks (or that were hidden as <UNK>)
    // numbered V, V+1, ... per sentence (see ExtendedSource): what a pointer copies and is trained on.
    torch::Tensor sourceExtended;  // (B, S) int64
    torch::Tensor targetExtended;  // (B, T) int64; undefined from makeSourceBatch()
    int size() const { return int(source.size(0)); }
};

// A sentence's words as ids: `ids` as the encoder reads them (<UNK> for a word the vocabulary lacks
// or that is in `hidden`) and `extended`, where each such word instead has the id V + its index in
// `unknownWords` (distinct words in order of first occurrence), as PointerMixture counts them.
struct ExtendedSource {
    std::vector<int> ids;
    std::vector<int> extended;
    std::vector<std::string> unknownWords;
};
ExtendedSource extendedSource(const std::vector<std::string> &words, const Vocabulary &vocabulary,
                              const std::vector<std::string> &hidden = {});
// The extended id of `word` in a sentence whose source is `source`: its unknown-word id when the
// source has it, otherwise its vocabulary id (<UNK> for a word neither knows).
int extendedId(const std::string &word, const ExtendedSource &source, const Vocabulary &vocabulary);

// `unknownRate`: each source word is replaced by <UNK> (in the target too) with this probability,
// so the model learns to pass unknown words through its attention.
Batch makeBatch(const std::vector<const SentencePair *> &pairs, const Vocabulary &vocabulary,
                double unknownRate = 0, std::mt19937_64 *rng = nullptr);

// Source tensors for sentences of ids (without <EOS>); sourceExtended from `extendedIds` (the same
// shapes) or, without them, equal to source.
Batch makeSourceBatch(const std::vector<std::vector<int>> &sourceIds,
                      const std::vector<std::vector<int>> &extendedIds = {});

// Each pair's source length in words, in order: what batchOrder() groups by.
std::vector<int> sourceLengths(const std::vector<SentencePair> &pairs);
// The pairs at `indices`, as makeBatch() takes them.
std::vector<const SentencePair *> pairsAt(const std::vector<SentencePair> &pairs, const std::vector<int> &indices);

// Batches of indices into `lengths`. Sentences of similar length are grouped (within pools of 32
// batches) so little padding is computed. With `rng`, shuffled, and in rounds of 8 batches that
// each span the lengths from short to long.
std::vector<std::vector<int>> batchOrder(const std::vector<int> &lengths, int batchSize,
                                         std::mt19937_64 *rng);
