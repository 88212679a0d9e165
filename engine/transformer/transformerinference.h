#pragma once

#include "engine/core/attentionhead.h"

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

// The Transformer's three attentions.
enum class TransformerAttentionKind {
    EncoderSelf,  // the source over itself
    DecoderSelf,  // each output step over the steps up to it (causal)
    Cross,        // each output step over the encoder's output
};

// The rows each attention projected its queries, keys and values from in one pass, d_model floats
// each: the sublayer's input after its layer norm (pre-LN) or as it came (post-LN).
struct AttentionInputs {
    std::vector<std::vector<float>> encoderSelf;   // [layer]: source x d_model
    std::vector<std::vector<float>> decoderSelf;   // [layer]: steps x d_model, queries and keys alike
    std::vector<std::vector<float>> crossQueries;  // [layer]: steps x d_model
    std::vector<float> memory;  // source x d_model: the encoder's output, every cross-attention's keys and values
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
    // Decoding that reads `outputIds` back in place of its own choices (teacher forcing): one step
    // per id, every attention recorded, and `inputs` filled. Its output is still what the model
    // chose at each step.
    DecodedIds teacherForced(const std::vector<int> &sourceIds, const std::vector<int> &outputIds,
                             AttentionInputs &inputs) const;
    // One head's projections in layer `layer` of `kind`. Throws std::invalid_argument for a layer or
    // head the model lacks.
    HeadProjections headProjections(TransformerAttentionKind kind, int layer, int head) const;
    bool preNorm() const;  // layer norm before each sublayer

    // The source encoded: one row, nothing decoded yet. Throws std::out_of_range for a sentence
    // longer than the positions or an id outside the vocabulary.
    // `inputs`, when given, gets the encoder's rows (AttentionInputs).
    DecodingState start(const std::vector<int> &sourceIds, bool recordAttention,
                        AttentionInputs *inputs = nullptr) const;
    // One step for every row: row i continues row parents[i] of `state` with token tokens[i] (the
    // first step: parents {0}, tokens {<SOS>}); `state` then holds the new rows. Throws
    // std::invalid_argument for parents that are not rows of `state`.
    // `inputs`, given to start() too, gets this step's decoder rows; one row only.
    DecodingStep step(DecodingState &state, const std::vector<int> &parents, const std::vector<int> &tokens,
                      bool recordAttention, AttentionInputs *inputs = nullptr) const;
    // The recorded attention rows of `steps` tokens, one after the other as step() gave them, as
    // `into`'s decoderSelf and cross.
    void unpackAttention(const std::vector<float> &rows, int steps, int sourceLength, DecodedIds &into) const;

    int layers() const;
    int heads() const;

private:
    struct Weights;
    std::unique_ptr<const Weights> m_weights;
};
