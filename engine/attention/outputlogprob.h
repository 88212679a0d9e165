#pragma once

#include "engine/attention/decodedsentence.h"

#include <string>
#include <vector>

class Seq2SeqModel;

// The token ids the decoder emitted for `sentence`, its final <EOS> included: a word copied
// through attention was emitted as <UNK>, and an output word outside the vocabulary counts as <UNK>.
std::vector<int> emittedTokenIds(const Seq2SeqModel &model, const DecodedSentence &sentence);

// log P(output | source) for each of `sources`: the sum over the output's tokens of
// log P(y_t | y_<t, source), the decoder fed the given tokens (teacher forcing), as training scores
// a sentence. `output` is token ids as emittedTokenIds() gives them; each source is words, read
// through the vocabulary (unknown words as <UNK>) and cut to Seq2SeqModel::kMaxInputTokens as
// decoding cuts them. All sources run as one padded batch, in eval mode.
std::vector<double> outputLogProbs(const Seq2SeqModel &model, const std::vector<std::vector<std::string>> &sources,
                                   const std::vector<int> &output);
