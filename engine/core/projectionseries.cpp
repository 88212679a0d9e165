#include "engine/core/projectionseries.h"

#include "engine/core/procrustes.h"

#include <algorithm>

std::vector<EmbeddingProjection> projectSeries(const std::vector<EmbeddingTable> &tables)
{
    std::vector<EmbeddingProjection> maps;
    maps.reserve(tables.size());
    for (const EmbeddingTable &table : tables)
        maps.push_back(projectEmbeddings2d(table));
    // Each onto the last rather than onto its neighbour: errors do not add up along a long run.
    for (std::size_t i = 0; i + 1 < maps.size(); ++i)
        alignProjection(maps[i], maps.back());
    return maps;
}

std::vector<MapPoint> trailOf(const std::vector<EmbeddingProjection> &maps, const std::string &word,
                              std::size_t count)
{
    std::vector<MapPoint> trail;
    for (std::size_t i = 0; i < std::min(count, maps.size()); ++i) {
        const auto &words = maps[i].words;
        const auto it = std::find_if(words.begin(), words.end(), [&](const ProjectedWord &w) { return w.word == word; });
        if (it != words.end())
            trail.push_back({it->x, it->y});
    }
    return trail;
}
