#pragma once

#include "engine/core/attentionhead.h"
#include "engine/core/scaleddotexplanation.h"
#include "engine/transformer/transformerinference.h"

#include <vector>

class Vocabulary;
struct TransformerOutput;

// Every number behind one weight of one Transformer head, for "Explain this weight": the rows the
// query and the key were projected from (the sublayer's input, after its layer norm in pre-LN; a
// cross-attention key's is the encoder's output), the head's biases, then q_i = x_i W_Q + b_Q and
// k_j likewise, q_i · k_j term by term, the division by √d_k, the softmax over the row (the causal
// mask in the decoder's self-attention), v_j and the value mix.
struct HeadExplanation {
    TransformerAttentionKind kind = TransformerAttentionKind::EncoderSelf;
    int layer = 0;
    int head = 0;
    bool preNorm = true;
    int modelSize = 0;               // d_model
    std::vector<double> queryInput;  // x_i (d_model)
    std::vector<double> keyInput;    // x_j (d_model): k_j and v_j are projected from it
    std::vector<double> queryBias;   // b_Q (d_k)
    std::vector<double> keyBias;     // b_K
    std::vector<double> valueBias;   // b_V
    ScaledDotExplanation attention;  // q_i, k_j, the scores and weights of row i, v_j, a_ij v_j, o_i
};

// Cell (query, key) of head `head` in layer `layer` of `kind`, for `output` as decodeWords() gave it
// with `inference` and `vocabulary`: the sentence runs through `inference` again with its outputs
// read back (teacher forcing), so its weights are the ones decoding showed, up to rounding. Rows are
// the source words (encoder) or the output steps (decoder); columns the source words, or the decoder
// steps' inputs (<SOS>, then each output but the last). Throws std::invalid_argument for a layer,
// head or cell the model or the sentence lacks, or a sentence it did not decode.
HeadExplanation explainHead(const TransformerInference &inference, const Vocabulary &vocabulary,
                            const TransformerOutput &output, TransformerAttentionKind kind, int layer, int head,
                            int query, int key);

// Head `head` of the encoder's self-attention in layer `layer` on `output`'s source, for another lab
// to recompute: its input rows (after the layer norm in pre-LN), its projections and the source
// tokens. Throws std::invalid_argument as explainHead() does.
AttentionHead encoderSelfAttentionHead(const TransformerInference &inference, const Vocabulary &vocabulary,
                                       const TransformerOutput &output, int layer, int head);
