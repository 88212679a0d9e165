#pragma once

#include "engine/attention/decodedsentence.h"
#include "engine/attention/seq2seqnet.h"
#include "engine/core/batch.h"

#include <string>
#include <vector>

class Seq2SeqModel;

// The token ids the decoder read back for `sentence`'s outputs, its final <EOS> included: a word
// copied through attention (or by a pointer) was read as <UNK>, and so is an output word outside
// the vocabulary.
std::vector<int> emittedTokenIds(const Seq2SeqModel &model, const DecodedSentence &sentence);

// `sources` (words, read through the vocabulary, cut to Seq2SeqModel::kMaxInputTokens as decoding
// cuts them) each with `output` as its target: <SOS>, then the output's tokens as emittedTokenIds()
// gives them, or with the pointer the extended ids of the words it copied from that source.
struct ScoringBatch {
    Batch batch;           // source tensors (makeSourceBatch)
    torch::Tensor target;  // (B, T + 1), T the output's tokens
};
ScoringBatch scoringBatch(const Seq2SeqModel &model, const std::vector<std::vector<std::string>> &sources,
                          const DecodedSentence &output);

// log P(y_t | y_<t, source) of every target step of `out`, (B, T'): the pointer's mixture where
// there is one, the softmax of the logits otherwise. `next` holds the targets predicted, (B, T').
torch::Tensor targetLogProbs(const TeacherForcedOutput &out, const torch::Tensor &sourceExtended,
                             const torch::Tensor &next);

// log P(output | source) for each of `sources`: the sum over the output's tokens of
// log P(y_t | y_<t, source), the decoder fed the given tokens (teacher forcing), as training scores
// a sentence. Without a pointer the output is scored as emittedTokenIds() gives it; with one, P(y_t)
// is the pointer's mixture, so a word is likelier where a source has it to copy. All sources run
// as one padded batch, in eval mode.
std::vector<double> outputLogProbs(const Seq2SeqModel &model, const std::vector<std::vector<std::string>> &sources,
                                   const DecodedSentence &output);

// The same, step by step: for each source, log P(y_t | y_<t, source) for each output token.
std::vector<std::vector<double>> outputStepLogProbs(const Seq2SeqModel &model,
                                                    const std::vector<std::vector<std::string>> &sources,
                                                    const DecodedSentence &output);
