#pragma once

#include "engine/core/torchapi.h"

#include <utility>

class DecoderImpl;

// The decoder's recurrent pass over a teacher-forced batch, forwards and backwards by hand as one
// autograd node: per step only the few-row products and the loops over the rows (attention, GRU
// cells), and each weight's gradient once per batch as one multiply over all steps, where autograd
// would record a dozen small ops a step and a backward for each. GRU cells with Bahdanau's
// attention and no pointer (decoderRecurrenceSupports()); the cell, attention and dropout masks are
// those of the step-by-step path, so the two give the same states and gradients.
bool decoderRecurrenceSupports(const DecoderImpl &decoder);

// From the keys (B, S, A), values (B, S, H) and mask bias (B, S) of the decoder's memory, its start
// state per layer (L, B, H) and the first layer's gates from each step's input embedding, b_ih
// included (B, T, 3H): the top layer's state after each step (B, T, H) and each step's context
// (B, T, H), as DecoderStates holds them. Differentiable in all but the mask.
std::pair<torch::Tensor, torch::Tensor> decoderRecurrence(DecoderImpl &decoder, const torch::Tensor &keys,
                                                          const torch::Tensor &values, const torch::Tensor &maskBias,
                                                          const torch::Tensor &start,
                                                          const torch::Tensor &embeddingGates);
