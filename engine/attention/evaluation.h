#pragma once

#include "engine/attention/decodedsentence.h"
#include "engine/core/lengthaccuracy.h"
#include "engine/core/sentencepair.h"

#include <map>
#include <string>
#include <vector>

class Seq2SeqModel;

struct Example {
    std::string input;
    std::string output;
    std::string reference;
    bool match = false;
};

struct EvaluationReport {
    int sentences = 0;
    double exactMatch = 0;      // 0..1: output words == reference words
    double tokenAccuracy = 0;   // 0..1: reference positions predicted right
    std::map<int, LengthAccuracy> byLength;  // by reference length in words
    LengthAccuracy withUnknownWords;         // sentences with a source word outside the vocabulary
    std::vector<Example> examples;           // every sentence, in data order
};

enum class DecodeMode { OneAtATime, Batched };

// Greedy decoding of every source sentence of `data`, in data order.
std::vector<DecodedSentence> decodeAll(const Seq2SeqModel &model, const std::vector<SentencePair> &data,
                                       DecodeMode mode);

EvaluationReport evaluate(const Seq2SeqModel &model, const std::vector<SentencePair> &data,
                          DecodeMode mode = DecodeMode::OneAtATime);

// `Input: "the cat sat"  Output: "sat cat the"  Reference: "sat cat the"  match`
std::string formatExample(const Example &example);
