#pragma once

#include "app/workbench/labmodule.h"

#include <vector>

// The course's exercises that open in the attention lab: the assignment, the attention variants
// table, greedy against beam search, the digits toy with tanh RNN cells, and LSTM layers.
std::vector<Exercise> attentionExercises();
