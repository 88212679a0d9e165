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

// gruCell as a window's training step runs it, out of place: `inputGates` = W_ih x and
// `hiddenGates` = W_hh h come without their biases, which it adds as it reads them (the products
// need not start from copies of the biases); reads the state from `previous`, writes the next to
// `next`, and stores r | z | n in `gates` (3n) and W_hn h + b_hn in `hiddenN` (n), all that
// backward reads of the step. The same floats as gruCell from the biased products.
void gruCellAddingBiases(const float *inputGates, const float *inputBias, const float *hiddenGates,
                         const float *hiddenBias, const float *previous, float *next, float *gates, float *hiddenN,
                         int64_t n);

// gruCell's gradients for one row, from the `gates` it stored, the `hiddenGates` and `hidden` it
// read and the gradient `dNext` of its output: those of the gate pre-activations (3n each) and
// the direct share of the previous state's (n), dNext ∘ z; the caller adds dHiddenGates · W_hh.
void gruCellBackward(const float *gates, const float *hiddenGates, const float *hidden, const float *dNext,
                     float *dInputGates, float *dHiddenGates, float *dHidden, int64_t n);

// gruCellBackward for a row of a window, from what gruCellAddingBiases stored, which also adds the
// gate gradients to sums over the window while they are in registers: the input gates' to
// `inputSums` (their bias's, or one character's), the hidden gates' to `hiddenSums`. Without
// `dInputGates` the input gates' gradients go to the sum alone.
void gruCellBackwardSumming(const float *gates, const float *hiddenN, const float *hidden, const float *dNext,
                            float *dInputGates, float *inputSums, float *dHiddenGates, float *hiddenSums,
                            float *dHidden, int64_t n);
