#pragma once

#include "engine/core/torchapi.h"

// One GRU cell update from its gate pre-activations, as torch::nn::GRU computes it:
// r = σ(gi_r + gh_r), z = σ(gi_z + gh_z), n = tanh(gi_n + r ∘ gh_n), h' = (1 − z) ∘ n + z ∘ h.
// `inputGates` = W_ih x + b_ih and `hiddenGates` = W_hh h + b_hh, both (B, 3H) in r|z|n order;
// the caller computes them, so it can fuse or precompute the multiplies. Float tensors on the CPU;
// one autograd node; σ and tanh are fastTanh's, within 4e-7 of exact.
torch::Tensor gruStep(const torch::Tensor &inputGates, const torch::Tensor &hiddenGates, const torch::Tensor &hidden);

// The same cell on one row of raw floats, updating `hidden` (n) in place from the gate
// pre-activations (3n each); with `gates`, also stores r | z | n there (3n), as backward needs.
void gruCell(const float *inputGates, const float *hiddenGates, float *hidden, float *gates, int64_t n);

// gruCell's gradients for one row, from the `gates` it stored, the `hiddenGates` and `hidden` it
// read and the gradient `dNext` of its output: those of the gate pre-activations (3n each) and
// the direct share of the previous state's (n), dNext ∘ z; the caller adds dHiddenGates · W_hh.
void gruCellBackward(const float *gates, const float *hiddenGates, const float *hidden, const float *dNext,
                     float *dInputGates, float *dHiddenGates, float *dHidden, int64_t n);
