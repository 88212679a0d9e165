#pragma once

#include "engine/core/vocabulary.h"

#include <QString>

#include <functional>
#include <memory>
#include <string>
#include <vector>

// One sentence through a shared decoder: what it read, what it output, and where it looked, as one
// attention matrix.
struct SharedDecoding {
    std::vector<std::string> sourceTokens;  // the sentence's words, then "<EOS>"
    std::vector<bool> sourceKnown;          // false where the model read the word as <UNK>
    std::vector<std::string> outputTokens;  // one per decoder step, "<EOS>" last when it was output
    std::vector<float> attention;           // outputTokens.size() x sourceTokens.size(), row-major
};

// A trained sequence-to-sequence model one lab offers the others (Workbench::shareDecoder) to
// decode sentences with, its attention seen as one matrix, without seeing the model: the
// Transformer lab's, picked on the attention lab's Compare page. The functions hold what they
// need and decode on the calling thread.
struct SharedDecoder {
    QString architecture;  // "Transformer"; a lab offers one decoder at a time: the next replaces it
    QString description;   // which model: "2 + 2 layers, 4 heads, width 128, sinusoidal positions, epoch 7"
    QString attention;     // what the matrix is: "cross-attention of the last layer, mean of its 4 heads"
    std::shared_ptr<const Vocabulary> vocabulary;  // the words it knows: models of other words do not compare
    bool lowercase = true;                         // whether it lower-cases what it reads
    // `sentence` tokenised as the model's data was, then decoded greedily. Throws std::exception
    // saying why for a sentence it cannot read (longer than its positions).
    std::function<SharedDecoding(const std::string &sentence)> decode;
    // `sourceWords` read, the decoder fed `outputTokens` instead of its own choices (teacher
    // forcing): a row per token of `outputTokens`, which the result's outputTokens repeat.
    std::function<SharedDecoding(const std::vector<std::string> &sourceWords,
                                 const std::vector<std::string> &outputTokens)>
        decodeAlong;
};
