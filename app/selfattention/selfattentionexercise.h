#pragma once

#include "app/workbench/labmodule.h"

// The course's self-attention exercise: the four sentences' weights computed, and the reflection
// questions answered from them.
Exercise selfAttentionExercise();
