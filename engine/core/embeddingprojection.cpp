#include "engine/core/embeddingprojection.h"

#include "engine/core/pca.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace {

void checkTable(const EmbeddingTable &table)
{
    const std::size_t rows = table.words.size();
    if (table.dimensions <= 0 || table.values.size() != rows * std::size_t(table.dimensions))
        throw std::invalid_argument(std::to_string(table.values.size()) + " values for " + std::to_string(rows)
                                    + " words x " + std::to_string(table.dimensions) + " dimensions");
}

double dot(const float *a, const float *b, int n)
{
    double sum = 0;
    for (int i = 0; i < n; ++i)
        sum += double(a[i]) * double(b[i]);
    return sum;
}

} // namespace

bool isSpecialToken(const std::string &word)
{
    return word.size() > 2 && word.front() == '<' && word.back() == '>';
}

EmbeddingProjection projectEmbeddings2d(const EmbeddingTable &table)
{
    EmbeddingProjection projection;
    if (table.words.empty())
        return projection;
    checkTable(table);
    const std::size_t rows = table.words.size();
    const int dimensions = table.dimensions;
    const auto row = [&](std::size_t r) { return table.values.data() + r * std::size_t(dimensions); };

    std::vector<bool> fitted(rows);
    for (std::size_t r = 0; r < rows; ++r)
        fitted[r] = !isSpecialToken(table.words[r]);
    if (std::count(fitted.begin(), fitted.end(), true) < 2)
        fitted.assign(rows, true);
    std::vector<float> fitValues;
    for (std::size_t r = 0; r < rows; ++r)
        if (fitted[r])
            fitValues.insert(fitValues.end(), row(r), row(r) + dimensions);
    const int fitRows = int(fitValues.size() / std::size_t(dimensions));
    const PrincipalComponents pca = principalComponents(fitValues, fitRows, dimensions, 2);

    projection.components = pca.components;
    for (int c = 0; c < pca.components; ++c)
        projection.explainedVariance[c] = pca.explainedVariance[std::size_t(c)];
    projection.words.reserve(rows);
    for (std::size_t r = 0; r < rows; ++r) {
        double coordinates[2] = {0, 0};
        for (int c = 0; c < pca.components; ++c)
            for (int d = 0; d < dimensions; ++d)
                coordinates[c] += (double(row(r)[d]) - pca.mean[std::size_t(d)])
                                  * pca.axes[std::size_t(c) * std::size_t(dimensions) + std::size_t(d)];
        projection.words.push_back(
            {table.words[r], coordinates[0], coordinates[1], isSpecialToken(table.words[r]), fitted[r]});
    }
    return projection;
}

std::vector<WordNeighbour> nearestWords(const EmbeddingTable &table, int index, int count)
{
    checkTable(table);
    const int rows = int(table.words.size());
    if (index < 0 || index >= rows)
        throw std::invalid_argument("word " + std::to_string(index) + " is out of range (0.."
                                    + std::to_string(rows - 1) + ")");
    const int dimensions = table.dimensions;
    const auto row = [&](int r) { return table.values.data() + std::size_t(r) * std::size_t(dimensions); };
    const double queryNorm = std::sqrt(dot(row(index), row(index), dimensions));
    std::vector<WordNeighbour> neighbours;
    for (int r = 0; r < rows; ++r) {
        if (r == index || isSpecialToken(table.words[std::size_t(r)]))
            continue;
        const double norm = std::sqrt(dot(row(r), row(r), dimensions));
        const double similarity = queryNorm > 0 && norm > 0
                                      ? dot(row(r), row(index), dimensions) / (queryNorm * norm)
                                      : 0.0;
        neighbours.push_back({r, similarity});
    }
    std::stable_sort(neighbours.begin(), neighbours.end(),
                     [](const WordNeighbour &a, const WordNeighbour &b) { return a.similarity > b.similarity; });
    neighbours.resize(std::min(neighbours.size(), std::size_t(std::max(count, 0))));
    return neighbours;
}
