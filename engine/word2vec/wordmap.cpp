#include "engine/word2vec/wordmap.h"

#include "engine/core/pca.h"
#include "engine/core/procrustes.h"

#include <algorithm>
#include <stdexcept>

EmbeddingProjection projectWordMap(const WordVectors &vectors, int fitWords, const EmbeddingProjection *previous)
{
    const int rows = vectors.size(), dims = vectors.dimensions;
    if (dims < 1 || vectors.values.size() != std::size_t(rows) * std::size_t(dims))
        throw std::invalid_argument("The word vectors do not hold words x dimensions numbers.");
    EmbeddingProjection map;
    if (rows == 0)
        return map;
    const int fitted = std::max(1, std::min(rows, fitWords));
    const std::vector<float> fitValues(vectors.values.begin(),
                                       vectors.values.begin() + std::ptrdiff_t(fitted) * dims);
    const PrincipalComponents pca = principalComponents(fitValues, fitted, dims, 2);
    map.components = std::min(2, pca.components);
    for (int c = 0; c < map.components; ++c)
        map.explainedVariance[c] = pca.explainedVariance[std::size_t(c)];
    map.words.resize(std::size_t(rows));
    for (int w = 0; w < rows; ++w) {
        ProjectedWord &word = map.words[std::size_t(w)];
        word.word = vectors.words[std::size_t(w)];
        word.fitted = w < fitted;
        const float *row = vectors.values.data() + std::size_t(w) * std::size_t(dims);
        double coordinates[2] = {0, 0};
        for (int c = 0; c < map.components; ++c)
            for (int d = 0; d < dims; ++d)
                coordinates[c] += (row[d] - pca.mean[std::size_t(d)]) * pca.axes[std::size_t(c) * std::size_t(dims) + std::size_t(d)];
        word.x = coordinates[0];
        word.y = coordinates[1];
    }
    if (previous)
        alignProjection(map, *previous);
    return map;
}
