#pragma once

#include "engine/core/embeddingprojection.h"

#include <cstddef>
#include <string>
#include <vector>

// The maps of one vocabulary's vectors at successive moments (a run's epochs): each table on its
// own first two principal components, then turned (alignProjection) onto the last map, so the axes
// stay put and a word's move from map to map is its own, not a spin or flip of a refitted basis.
// The last map is projectEmbeddings2d of the last table, unchanged. Throws std::invalid_argument
// for an inconsistent table, as projectEmbeddings2d does.
std::vector<EmbeddingProjection> projectSeries(const std::vector<EmbeddingTable> &tables);

struct MapPoint {
    double x = 0;
    double y = 0;
};

// Where `word` lies on the first `count` maps, in order; maps without the word add no point.
std::vector<MapPoint> trailOf(const std::vector<EmbeddingProjection> &maps, const std::string &word,
                              std::size_t count);
