#pragma once

#include "app/workbench/labmodule.h"

// The course's character RNN exercise: one short line learned by a tanh RNN, then sampled.
Exercise charRnnExercise();
