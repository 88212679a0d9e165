#pragma once

#include <memory>
#include <vector>

class TransformerNetImpl;

// One attention's weights in every layer and head: weights[layer][head] is a rows x columns
// matrix, row-major.
struct LayeredAttention {
    int rows = 0;
    int columns = 0;
    std::vector<std::vector<std::vector<float>>> weights;
};

// One sentence decoded greedily: the output ids (<EOS> included when the model said it) and,
// when asked for, every attention taken on the way.
struct DecodedIds {
    std::vector<int> output;
    LayeredAttention encoderSelf;  // source x source
    LayeredAttention decoderSelf;  // output x output, 0 above the diagonal
    LayeredAttention cross;        // output x source
};

// One sentence being decoded along several hypotheses at once, a row each: what the source gives
// every step, computed once, and per row each decoder layer's self-attention keys and values so
// far. Made by TransformerInference::start(), advanced by step().
struct DecodingState {
    int sourceLength = 0;
    int steps = 0;                                    // tokens fed so far, as many in every row
    LayeredAttention encoderSelf;                     // when recorded
    std::vector<std::vector<float>> crossKeysValues;  // per decoder layer: sourceLength x 2 d_model, keys then values
    std::vector<std::vector<std::vector<float>>> selfKeys, selfValues;  // per row, per layer: steps x d_model
};

// What one step gave each row.
struct DecodingStep {
    std::vector<float> logits;  // rows x vocabulary
    // When recorded, per row (row-major): the cross-attention weights [layer][head][source word],
    // then the self-attention weights [layer][head][position 0..step].
    std::vector<float> attention;
};

// Decoding written out over plain float arrays, on the calling thread: the arithmetic of
// greedyDecode() with the key/value cache, without LibTorch's cost per op, which is most of a
// step's time when each product has one row. Built from a copy of the network's weights; const
// after that, so threads may share one (each decoding holds its own DecodingState).
class TransformerInference
{
public:
    explicit TransformerInference(TransformerNetImpl &net);
    ~TransformerInference();

    // Greedy decoding. sourceIds: the sentence's ids, <EOS> last. At most maxSteps tokens.
    DecodedIds decode(const std::vector<int> &sourceIds, int maxSteps, bool recordAttention) const;

    // The source encoded: one row, nothing decoded yet. Throws std::out_of_range for a sentence
    // longer than the positions or an id outside the vocabulary.
    DecodingState start(const std::vector<int> &sourceIds, bool recordAttention) const;
    // One step for every row: row i continues row parents[i] of `state` with token tokens[i] (the
    // first step: parents {0}, tokens {<SOS>}); `state` then holds the new rows. Throws
    // std::invalid_argument for parents that are not rows of `state`.
    DecodingStep step(DecodingState &state, const std::vector<int> &parents, const std::vector<int> &tokens,
                      bool recordAttention) const;
    // The recorded attention rows of `steps` tokens, one after the other as step() gave them, as
    // `into`'s decoderSelf and cross.
    void unpackAttention(const std::vector<float> &rows, int steps, int sourceLength, DecodedIds &into) const;

    int layers() const;
    int heads() const;

private:
    struct Weights;
    std::unique_ptr<const Weights> m_weights;
};
