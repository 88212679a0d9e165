#pragma once

#include "app/workbench/labmodule.h"

// The course's skip-gram exercise: negative sampling on a toy corpus of the royal family.
Exercise skipGramExercise();
