#pragma once

// Beam search is shared by the labs now: engine/core/beamsearch.h. The attention lab's ui/ and
// app/ files still include it by this name.
#include "engine/core/beamsearch.h"
