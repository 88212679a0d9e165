#pragma once

#include "engine/attention/decodedsentence.h"
#include "engine/core/vocabulary.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

class Seq2SeqModel;

// `model`'s attention over `along`'s source when its decoder is fed `along`'s output words
// (teacher forcing) instead of its own guesses: one row per output word of `along`, so two models
// can be compared row by row even where their own outputs differ. The words are read through
// `model`'s vocabulary (a copied word as <UNK>, as it was emitted). Without attention (variant
// none) the attention stays empty.
DecodedSentence decodeAlong(const Seq2SeqModel &model, const DecodedSentence &along);

// b - a cell by cell. Throws std::invalid_argument when the two differ in shape or either has no
// attention.
std::vector<float> attentionDifference(const DecodedSentence &a, const DecodedSentence &b);

// Two models on one sentence: what each outputs on its own, and how B's attention differs from
// A's along A's output.
struct AttentionComparison {
    DecodedSentence a, b;            // each model's own greedy decode
    std::vector<float> difference;   // B - A along a's output: a.rows() x a.columns(); empty when `problem` is set
    std::string problem;             // why there is no difference (no attention, other vocabularies)
    bool sameOutput() const { return a.outputTokens == b.outputTokens; }
};
AttentionComparison compareAttention(const Seq2SeqModel &a, const Seq2SeqModel &b, const std::string &sentence);

// A model as compareAttention() reads it, of any architecture: how it decodes a sentence, and its
// attention along another decode's output words (as decodeAlong() for the RNN).
struct ComparedModel {
    std::function<DecodedSentence(const std::string &sentence)> decode;
    std::function<DecodedSentence(const DecodedSentence &along)> decodeAlong;
    std::shared_ptr<const Vocabulary> vocabulary;
    bool lowercase = true;
    bool hasAttention = true;
};
// The RNN `model` as a ComparedModel; the functions keep it alive.
ComparedModel comparedModel(std::shared_ptr<const Seq2SeqModel> model);
// As compareAttention() of two RNNs, the difference taken by each model's decodeAlong; throws
// std::invalid_argument as attentionDifference() does.
AttentionComparison compareAttention(const ComparedModel &a, const ComparedModel &b, const std::string &sentence);
