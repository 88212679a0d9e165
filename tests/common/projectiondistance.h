#pragma once

#include "engine/core/embeddingprojection.h"

#include <algorithm>
#include <cmath>

// How far apart two maps of the same words (in the same order) are: the largest distance any word
// lies from its place on the other map.
inline double largestDistance(const EmbeddingProjection &a, const EmbeddingProjection &b)
{
    double worst = 0;
    for (std::size_t i = 0; i < a.words.size(); ++i)
        worst = std::max(worst, std::hypot(a.words[i].x - b.words[i].x, a.words[i].y - b.words[i].y));
    return worst;
}
