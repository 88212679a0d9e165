#pragma once

#include "engine/core/scaleddotexplanation.h"
#include "engine/selfattention/scaleddotproductattention.h"

// Every number behind the explorer's weight a_ij (query word i, key word j), for its "Explain this
// weight", from its own Q, K and V; every key is visible. Throws std::invalid_argument for a cell
// outside the matrix.
ScaledDotExplanation explainSelfAttention(const ScaledDotProductAttention &attention, int query, int key);
