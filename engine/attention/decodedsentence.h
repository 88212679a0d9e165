#pragma once

#include <string>
#include <vector>

// A sentence run through the model: what went in, what came out, and where it looked.
struct DecodedSentence {
    std::vector<std::string> sourceTokens;  // input tokens, then "<EOS>"
    std::vector<bool> sourceKnown;          // false where the vocabulary maps the token to <UNK>
    std::vector<std::string> outputTokens;  // decoder steps, "<EOS>" last when the model emitted it
    std::vector<bool> outputCopied;         // <UNK> emitted and replaced by the attended source word, or
                                            // (pointer) a word the vocabulary lacks copied from the source
    std::vector<float> copyGate;            // p_gen per output step (pointer: 1 generates, 0 copies);
                                            // empty for a model without the pointer
    std::vector<float> attention;           // outputTokens.size() x sourceTokens.size(), row-major; empty
                                            // for a model without attention (variant none)
    bool truncatedInput = false;            // the input was longer than the model accepts

    int rows() const { return int(outputTokens.size()); }
    int columns() const { return int(sourceTokens.size()); }
    float weight(int row, int column) const { return attention[std::size_t(row) * sourceTokens.size() + column]; }
    std::vector<std::string> words() const;  // output without the final "<EOS>"
    std::string text() const;                // words() joined by spaces
};
