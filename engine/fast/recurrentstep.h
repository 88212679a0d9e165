#pragma once

#include "engine/core/recurrentcell.h"
#include "engine/core/torchapi.h"

// One step of any of the cells from its gate pre-activations, as torch::nn::RNN (tanh), GRU and
// LSTM compute it: `inputGates` = W_ih x + b_ih and `hiddenGates` = W_hh h + b_hh, both
// (B, gateCount(kind) H), computed by the caller so that it can fuse or precompute the multiplies.
//  rnn:  h' = tanh(gi + gh)
//  gru:  gruStep
//  lstm: i|f|g|o = gi + gh, c' = σ(f) ∘ c + σ(i) ∘ tanh(g), h' = σ(o) ∘ tanh(c'); `cell` (B, H) is
//        read and replaced by c' (the other cells leave it alone).
// Returns h' (B, H); differentiable.
torch::Tensor recurrentStep(RecurrentCell kind, const torch::Tensor &inputGates, const torch::Tensor &hiddenGates,
                            const torch::Tensor &hidden, torch::Tensor *cell);
