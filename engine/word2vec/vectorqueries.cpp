#include "engine/word2vec/vectorqueries.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace {

void normalise(float *v, int dimensions)
{
    double norm = 0;
    for (int d = 0; d < dimensions; ++d)
        norm += double(v[d]) * v[d];
    if (norm > 0) {
        const float scale = float(1 / std::sqrt(norm));
        for (int d = 0; d < dimensions; ++d)
            v[d] *= scale;
    }
}

}

VectorIndex::VectorIndex(const WordVectors &vectors)
    : m_words(vectors.words), m_dimensions(vectors.dimensions), m_unit(vectors.values)
{
    if (m_unit.size() != m_words.size() * std::size_t(std::max(0, m_dimensions)))
        throw std::invalid_argument("The vectors do not hold words x dimensions numbers.");
    for (int w = 0; w < size(); ++w) {
        normalise(m_unit.data() + std::size_t(w) * std::size_t(m_dimensions), m_dimensions);
        m_rows.emplace(m_words[std::size_t(w)], w);
    }
}

int VectorIndex::index(const std::string &word) const
{
    const auto it = m_rows.find(word);
    return it == m_rows.end() ? -1 : it->second;
}

double VectorIndex::similarity(int a, int b) const
{
    const float *x = m_unit.data() + std::size_t(a) * std::size_t(m_dimensions);
    const float *y = m_unit.data() + std::size_t(b) * std::size_t(m_dimensions);
    double dot = 0;
    for (int d = 0; d < m_dimensions; ++d)
        dot += double(x[d]) * y[d];
    return dot;
}

std::vector<ScoredWord> VectorIndex::best(const std::vector<float> &query, const std::vector<int> &excluded,
                                          int count) const
{
    std::vector<std::pair<float, int>> scores;
    scores.reserve(m_words.size());
    for (int w = 0; w < size(); ++w) {
        if (std::find(excluded.begin(), excluded.end(), w) != excluded.end())
            continue;
        const float *row = m_unit.data() + std::size_t(w) * std::size_t(m_dimensions);
        float dot = 0;
        for (int d = 0; d < m_dimensions; ++d)
            dot += row[d] * query[std::size_t(d)];
        scores.emplace_back(dot, w);
    }
    const std::size_t n = std::min<std::size_t>(std::size_t(std::max(0, count)), scores.size());
    // Best first; ties in vocabulary order.
    std::partial_sort(scores.begin(), scores.begin() + std::ptrdiff_t(n), scores.end(),
                      [](const auto &a, const auto &b) { return a.first != b.first ? a.first > b.first : a.second < b.second; });
    std::vector<ScoredWord> out;
    for (std::size_t i = 0; i < n; ++i)
        out.push_back({m_words[std::size_t(scores[i].second)], scores[i].second, scores[i].first});
    return out;
}

std::vector<ScoredWord> VectorIndex::nearest(int word, int count) const
{
    const float *row = m_unit.data() + std::size_t(word) * std::size_t(m_dimensions);
    return best(std::vector<float>(row, row + m_dimensions), {word}, count);
}

std::vector<ScoredWord> VectorIndex::analogy(int a, int b, int c, int count) const
{
    std::vector<float> query(static_cast<std::size_t>(m_dimensions));
    for (int d = 0; d < m_dimensions; ++d) {
        auto at = [&](int w) { return m_unit[std::size_t(w) * std::size_t(m_dimensions) + std::size_t(d)]; };
        query[std::size_t(d)] = (at(b) - at(a) + at(c)) / 3;
    }
    normalise(query.data(), m_dimensions);
    return best(query, {a, b, c}, count);
}

int VectorIndex::oddOneOut(const std::vector<int> &words) const
{
    if (words.size() < 2)
        return words.empty() ? -1 : words.front();
    std::vector<float> mean(std::size_t(m_dimensions), 0.f);
    for (int w : words)
        for (int d = 0; d < m_dimensions; ++d)
            mean[std::size_t(d)] += m_unit[std::size_t(w) * std::size_t(m_dimensions) + std::size_t(d)];
    normalise(mean.data(), m_dimensions);
    int odd = words.front();
    double lowest = 2;
    for (int w : words) {
        double dot = 0;
        for (int d = 0; d < m_dimensions; ++d)
            dot += double(mean[std::size_t(d)]) * m_unit[std::size_t(w) * std::size_t(m_dimensions) + std::size_t(d)];
        if (dot < lowest) {
            lowest = dot;
            odd = w;
        }
    }
    return odd;
}
