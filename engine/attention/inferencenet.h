#pragma once

#include "engine/core/beamsearch.h"

#include <vector>

class Seq2SeqNetImpl;

// One sentence through the greedy decoder, as tokens and an attention row per step.
struct InferenceNetOutput {
    std::vector<int> tokens;      // one per step; with the pointer, extended ids (see PointerMixture)
    std::vector<float> weights;   // steps x source length, row-major
    std::vector<float> copyGate;  // p_gen, one per step; empty without the pointer
};

// Speed code, the attention lab's one-sentence fast path: a frozen float copy of a Bahdanau
// Seq2SeqNet (its weights read through Seq2SeqWeights) that decodes one sentence in eval mode
// with plain loops and BLAS matrix-vector products instead of tensor ops. One sentence is too
// little work for LibTorch's ~2-5 us per op to hide behind: the op-by-op decoder spends most of a
// decode in dispatch. What is linear in the encoder outputs or the previous token is multiplied
// once per sentence or once per vocabulary word, not once per step:
//   context's share of the GRU gates and logits: sum_i a_i (W h_i) instead of W (sum_i a_i h_i);
//   the token embedding's share of the GRU gates: one row of a table (vocabulary x gates).
// The embedding's share of the logits is multiplied at each step: a table of it would be
// vocabulary x vocabulary, 400 MB for a corpus's 10,000 words.
// With the pointer, the copy gate's share of the context is one number per source position, and
// each step mixes the vocabulary's softmax with the attention over the source's extended ids.
// The result equals Seq2SeqNetImpl::greedy's up to float rounding.
class InferenceNet
{
public:
    // Whether `net` has the shape this class decodes (GRU cells and Bahdanau attention, with or without
    // the pointer).
    static bool supports(Seq2SeqNetImpl &net);
    explicit InferenceNet(Seq2SeqNetImpl &net);

    // Decodes `source` (ids, <EOS> included) for up to `maxSteps` steps, stopping after <EOS>
    // when `stopAtEos`. `extended`: the source's extended ids, which the pointer copies (empty:
    // the ids themselves). Shares its larger products with HelperThread; not thread-safe (it
    // reuses scratch buffers).
    InferenceNetOutput greedy(const std::vector<int> &source, int maxSteps, bool stopAtEos,
                              const std::vector<int> &extended = {});

    // Beam search's steps (BeamStepFunction) over the hypotheses as rows of one product: begin()
    // encodes `source` (ids, <EOS> included; `extended` as for greedy()), each step() then
    // reorders the rows by `parents` and feeds `lastTokens` (extended ids with the pointer).
    void begin(const std::vector<int> &source, const std::vector<int> &extended = {});
    BeamScores step(const std::vector<int> &parents, const std::vector<int> &lastTokens);

private:
    struct GruWeights {
        int inputSize = 0, size = 0;
        std::vector<float> inputToGates, inputBias;    // (3 size, inputSize), (3 size)
        std::vector<float> hiddenToGates, hiddenBias;  // (3 size, size), (3 size)
        std::vector<float> tokenGates;                 // first layer only: (vocabulary, 3 size), bias included
    };

    void encode(const std::vector<int> &source, const std::vector<int> &extended);
    // One decoder step for each of the rows of m_state, row r fed tokens[r] (extended ids are
    // read as <UNK>): leaves the logits in m_logits (rows, V) and the attention in m_weights
    // (rows, S); with the pointer also p_gen in m_copyGates (rows) and the extended distribution
    // in m_mixture (rows, m_extendedWidth).
    void advance(const std::vector<int> &tokens);
    void mixPointer(int rows);

    int m_vocabulary = 0, m_layers = 0, m_directions = 0, m_hidden = 0, m_attention = 0;
    std::vector<GruWeights> m_encoder;  // layer-major, direction-minor
    std::vector<float> m_bridge, m_bridgeBias;
    std::vector<GruWeights> m_decoder;  // per layer; the top one's hidden product lives in m_top
    std::vector<float> m_keysWeight;     // W_h (A, H)
    std::vector<float> m_top, m_topBias;  // [W_s; W_hh(top)] (A + 3H, H), [0; b_hh(top)]
    std::vector<float> m_score;          // v (A)
    std::vector<float> m_contextToGates;  // W_ih(layer 0) context columns (3H, H)
    std::vector<float> m_stateToLogits, m_contextToLogits;  // out.weight columns (V, H) each
    int m_embed = 0;
    std::vector<float> m_embedding;          // the decoder's (V, E)
    std::vector<float> m_embeddingToLogits;  // out.weight's embedding columns (V, E)
    std::vector<float> m_outputBias;         // (V)
    bool m_pointer = false;
    std::vector<float> m_stateToCopy, m_contextToCopy, m_embeddingToCopy;  // (H), (H), (E)
    float m_copyBias = 0;

    // Per-sentence scratch; each state and step buffer holds one row per hypothesis (one for greedy).
    int m_length = 0;
    std::vector<float> m_values, m_keys, m_valueGates, m_valueLogits;  // (S, H), (S, A), (S, 3H), (S, V)
    std::vector<float> m_valueCopy;  // (S): the context's share of the gate's sum, per position
    std::vector<int> m_extended;     // (S)
    int m_extendedWidth = 0;         // V, or the largest extended id + 1
    std::vector<std::vector<float>> m_state;        // per layer
    std::vector<std::vector<float>> m_hiddenGates;  // per layer below the top
    std::vector<float> m_topOut, m_gates, m_inputGates, m_embedded, m_logits, m_energy, m_weights;
    std::vector<float> m_copyGates, m_mixture;
};
