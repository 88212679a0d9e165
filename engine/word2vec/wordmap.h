#pragma once

#include "engine/core/embeddingprojection.h"
#include "engine/word2vec/wordvectors.h"

// The word map: every word on two principal components fitted to the `fitWords` first rows (the
// most frequent words, in a trained vocabulary's order), so a large vocabulary stays quick and
// rare words, trained on little, do not steer the axes. Given the previous map (a refresh while
// training), the new one is turned to match it (alignProjection), so the picture does not spin or
// flip. Throws std::invalid_argument for vectors that are not words x dimensions.
EmbeddingProjection projectWordMap(const WordVectors &vectors, int fitWords,
                                   const EmbeddingProjection *previous = nullptr);
