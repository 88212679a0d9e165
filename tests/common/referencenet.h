#pragma once

#include "engine/attention/seq2seqnet.h"

#include <utility>
#include <vector>

// The attention lab's network op by op, as LibTorch's own modules compute it: the oracles that
// the fast paths (the encoder's recurrent loop, the decoder's fused step and attention node,
// InferenceNet) are held to, forwards and backwards. Tests only: slower, and written for
// plainness rather than speed.

// The encoder: torch::nn::GRU (RNN, LSTM) over packed sequences, then the bridge.
EncoderOutput referenceEncode(Encoder &encoder, const torch::Tensor &source, const torch::Tensor &lengths);

// Additive attention from the decoder state s (B, H): e_i = v . tanh(W_s s + keys_i), softmax over
// the real tokens (mask (B, S) bool), context = sum_i a_i values_i. Returns context and weights.
std::pair<torch::Tensor, torch::Tensor> referenceAttention(BahdanauAttention &attention, const torch::Tensor &state,
                                                           const torch::Tensor &keys, const torch::Tensor &values,
                                                           const torch::Tensor &mask);

struct ReferenceStep {
    torch::Tensor logits;   // (B, V)
    torch::Tensor hidden;   // (layers, B, H)
    torch::Tensor weights;  // (B, S)
    torch::Tensor cells;    // (layers, B, H); LSTM only
};

// One Bahdanau decoder step from `hidden` (layers, B, H) and, for an LSTM, `cells` (the same):
// attention with the top layer's state, torch::nn::GRU (RNN, LSTM) on [embedding; context], output
// layer on [its output; context; embedding].
ReferenceStep referenceStep(Decoder &decoder, const torch::Tensor &token, const torch::Tensor &hidden,
                            const DecoderMemory &memory, const torch::Tensor &cells = {});

// Teacher-forced training logits (B, T-1, V) for target[:, 1:], one referenceStep at a time;
// coins[t - 1] says whether step t + 1 reads the reference token t or the step's own argmax.
torch::Tensor referenceUnroll(Seq2SeqNet &net, const torch::Tensor &source, const torch::Tensor &lengths,
                              const torch::Tensor &target, const std::vector<bool> &coins);

// Greedy decoding for `steps` steps (no stop at <EOS>), encoder and decoder both op by op.
GreedyOutput referenceGreedy(Seq2SeqNet &net, const torch::Tensor &source, const torch::Tensor &lengths, int steps);
