#pragma once

#include "engine/attention/decodedsentence.h"
#include "engine/attention/modelconfig.h"

#include <vector>

class Seq2SeqModel;

// Every number behind one attention weight a_tj (output step t, source position j), taken from the
// model itself, for the attention lab's "Explain this weight". The variant decides the score:
//   bahdanau:      e_k = vᵀ tanh(W_s s + W_h h_k), s = the decoder's top state before step t
//   location:      e_k = vᵀ tanh(W_s s + W_h h_k + U f_k + b), f = F * a_{t-1}, s likewise
//   luong-dot:     e_k = sᵀ h_k,                   s = the top state after step t's GRU
//   luong-general: e_k = sᵀ (W_a h_k),             likewise
//   scaled-dot:    e_k = sᵀ h_k / √H,              likewise
//   bahdanau-after: as bahdanau, s = the top state after step t's GRU
// then a = softmax(e) over the row, the context c = Σ_k a_k h_k, and position j's share a_j h_j.
struct AttentionExplanation {
    AttentionKind kind = AttentionKind::Bahdanau;
    RecurrentCell cell = RecurrentCell::Gru;  // the decoder's
    int step = 0;
    int position = 0;

    std::vector<double> state;         // s (H)
    std::vector<double> encoderState;  // h_j (H)
    std::vector<double> query;         // bahdanau, location: W_s s (A); luong: empty
    std::vector<double> key;           // bahdanau, location: W_h h_j (A); luong-general: W_a h_j; luong-dot: h_j
    std::vector<double> location;      // location: U f_j + b (A); others: empty
    std::vector<double> previousWeights;  // location: a_{t-1} over the row (zeros at the first step); others: empty
    std::vector<double> energy;        // bahdanau: tanh(W_s s + W_h h_j) (A), location with U f_j + b; luong: empty
    std::vector<double> scoreWeights;  // bahdanau, location: v (A); luong: empty

    std::vector<double> scores;   // e_k for every source position k of the row
    std::vector<double> weights;  // softmax(scores): a_k, the heatmap's row
    std::vector<double> context;  // c (H)
    std::vector<double> share;    // a_j h_j (H)
    double shareNormRatio = 0;     // ‖a_j h_j‖ / ‖c‖
    double shareAlongContext = 0;  // (a_j h_j · c) / ‖c‖²: these add up to 1 over the row

    double score() const { return scores[std::size_t(position)]; }
    double weight() const { return weights[std::size_t(position)]; }
};

// Runs `sentence` (as decode() or beamDecode() returned it for `model`) through the model again,
// the encoder once and the decoder step by step on the words the sentence shows (teacher forced,
// an output word copied in place of <UNK> read as <UNK>), in eval mode as decoding is, and keeps
// what step `step` computes for position `position`. Its weights are the ones decoding produced,
// up to float rounding. Throws std::invalid_argument for a model without attention, a sentence
// that does not fit it, or a cell outside the sentence.
AttentionExplanation explainAttention(const Seq2SeqModel &model, const DecodedSentence &sentence, int step,
                                      int position);
