#pragma once

#include <cstdint>

// One plain RNN cell update on one row of raw floats, as torch::nn::RNN computes it with tanh:
// h' = tanh(a), `preActivation` a = W_ih x + b_ih + W_hh h + b_hh (n), h' written to `hidden` (n).
// tanh is fastTanh.
void rnnCell(const float *preActivation, float *hidden, int64_t n);

// rnnCell's gradient for one row: that of the pre-activation, dNext ∘ (1 − h'²), from the output
// h' (`hidden`) and its gradient. The previous state's is dPreActivation · W_hh, the caller's.
void rnnCellBackward(const float *hidden, const float *dNext, float *dPreActivation, int64_t n);
