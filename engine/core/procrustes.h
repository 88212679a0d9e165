#pragma once

#include "engine/core/embeddingprojection.h"

// Orthogonal Procrustes in the plane: turns (and, where that fits better, mirrors) `current`
// about the origin so that its words, matched by name, lie as close as they can to where they
// were in `previous`. A refreshed PCA basis may spin or flip; after this it does not.
// Words only in one of the two are moved along but do not count in the fit.
void alignProjection(EmbeddingProjection &current, const EmbeddingProjection &previous);
