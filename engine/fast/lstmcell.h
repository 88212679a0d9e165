#pragma once

#include <cstdint>

// One LSTM cell update on one row of raw floats, as torch::nn::LSTM computes it:
// i = σ(a_i), f = σ(a_f), g = tanh(a_g), o = σ(a_o), c' = f ∘ c + i ∘ g, h' = o ∘ tanh(c').
// `preActivations` = W_ih x + b_ih + W_hh h + b_hh (4n, in torch's order i|f|g|o); `cell` (n) is
// updated in place and h' written to `hidden` (n). With `gates`, also stores i | f | g | o there
// (4n), as backward needs. σ and tanh are fastTanh's.
void lstmCell(const float *preActivations, float *hidden, float *cell, float *gates, int64_t n);

// lstmCell's gradients for one row, from the `gates` it stored, the cell state before (`cell`) and
// after (`nextCell`) and the gradient `dNextHidden` of h'. `dCell` holds the gradient of c' that
// flows back from later steps and is replaced by that of c; the pre-activations' gradients go to
// `dPreActivations` (4n). The previous state's gradient is dPreActivations · W_hh, the caller's.
void lstmCellBackward(const float *gates, const float *cell, const float *nextCell, const float *dNextHidden,
                      float *dCell, float *dPreActivations, int64_t n);
