#pragma once

#include "engine/core/torchapi.h"

// Mean cross-entropy over real target tokens: positions holding <PAD> contribute exactly nothing.
// logits (B, T, V), targets (B, T) int64.
torch::Tensor maskedCrossEntropy(const torch::Tensor &logits, const torch::Tensor &targets);
