#include "engine/selfattention/selfattentioninputs.h"

#include "engine/core/pca.h"

#include <cmath>
#include <random>
#include <stdexcept>
#include <unordered_map>

namespace {

// Spreads nearby seeds (1, 2, 3…) over the whole state space: SplitMix64's finaliser.
std::uint64_t mix(std::uint64_t z)
{
    z += 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

// FNV-1a: a fixed, portable hash (std::hash may differ between standard libraries).
std::uint64_t hashWord(const std::string &word)
{
    std::uint64_t h = 0xcbf29ce484222325ULL;
    for (unsigned char c : word) {
        h ^= c;
        h *= 0x100000001b3ULL;
    }
    return h;
}

// One of -1.0, -0.9, …, 1.0. The modulo bias of 2^64 mod 21 is below 1e-18.
double draw(std::mt19937_64 &generator)
{
    return double(int(generator() % 21) - 10) / 10.0;
}

Matrix randomMatrix(std::mt19937_64 &generator, int rows, int columns)
{
    Matrix m(rows, columns);
    for (double &value : m.values)
        value = draw(generator);
    return m;
}

void checkDimensions(int dModel, int dK)
{
    if (dModel < 1 || dK < 1)
        throw std::invalid_argument("d_model and d_k must be at least 1");
}

void drawProjections(SelfAttentionInputs &inputs, int dModel, int dK, std::uint64_t seed)
{
    std::mt19937_64 generator(mix(seed));
    inputs.wq = randomMatrix(generator, dModel, dK);
    inputs.wk = randomMatrix(generator, dModel, dK);
    inputs.wv = randomMatrix(generator, dModel, dK);
}

} // namespace

SelfAttentionInputs SelfAttentionInputs::random(const std::vector<std::string> &tokens, int dModel, int dK,
                                                std::uint64_t seed)
{
    checkDimensions(dModel, dK);
    SelfAttentionInputs inputs;
    inputs.tokens = tokens;
    inputs.known.assign(tokens.size(), true);
    inputs.x = Matrix(int(tokens.size()), dModel);
    for (int r = 0; r < inputs.x.rows; ++r) {
        std::mt19937_64 generator(mix(seed ^ hashWord(tokens[std::size_t(r)])));
        for (int c = 0; c < dModel; ++c)
            inputs.x.at(r, c) = draw(generator);
    }
    drawProjections(inputs, dModel, dK, seed);
    return inputs;
}

SelfAttentionInputs SelfAttentionInputs::fromEmbeddings(const std::vector<std::string> &tokens,
                                                        const EmbeddingTable &embeddings, int dK, std::uint64_t seed)
{
    const int dModel = embeddings.dimensions;
    checkDimensions(dModel, dK);
    if (embeddings.values.size() != embeddings.words.size() * std::size_t(dModel))
        throw std::invalid_argument("embedding table holds " + std::to_string(embeddings.values.size()) + " values for "
                                    + std::to_string(embeddings.words.size()) + " words of "
                                    + std::to_string(dModel) + " dimensions");
    std::unordered_map<std::string, int> rows;
    for (std::size_t i = 0; i < embeddings.words.size(); ++i)
        rows.emplace(embeddings.words[i], int(i));
    const auto unknown = rows.find("<UNK>");

    SelfAttentionInputs inputs;
    inputs.tokens = tokens;
    inputs.x = Matrix(int(tokens.size()), dModel);
    for (int r = 0; r < inputs.x.rows; ++r) {
        auto it = rows.find(tokens[std::size_t(r)]);
        inputs.known.push_back(it != rows.end());
        if (it == rows.end())
            it = unknown;
        if (it == rows.end())
            continue;
        for (int c = 0; c < dModel; ++c)
            inputs.x.at(r, c) = double(embeddings.values[std::size_t(it->second) * std::size_t(dModel) + std::size_t(c)]);
    }
    drawProjections(inputs, dModel, dK, seed);
    return inputs;
}

SelfAttentionInputs SelfAttentionInputs::fromHead(const AttentionHead &head)
{
    const HeadProjections &p = head.projections;
    const std::size_t n = head.tokens.size();
    const std::size_t weights = std::size_t(p.modelSize) * std::size_t(p.headSize);
    if (n < 1 || p.modelSize < 1 || p.headSize < 1 || head.x.size() != n * std::size_t(p.modelSize)
        || p.wq.size() != weights || p.wk.size() != weights || p.wv.size() != weights
        || p.bq.size() != std::size_t(p.headSize) || p.bk.size() != std::size_t(p.headSize)
        || p.bv.size() != std::size_t(p.headSize))
        throw std::invalid_argument("the shared head's matrices do not fit its " + std::to_string(n) + " tokens, d_model "
                                    + std::to_string(p.modelSize) + " and d_k " + std::to_string(p.headSize));
    SelfAttentionInputs inputs;
    inputs.tokens = head.tokens;
    inputs.known.assign(n, true);
    inputs.x = Matrix(int(n), p.modelSize + 1, 1.0);
    for (int r = 0; r < int(n); ++r)
        for (int c = 0; c < p.modelSize; ++c)
            inputs.x.at(r, c) = double(head.x[std::size_t(r) * std::size_t(p.modelSize) + std::size_t(c)]);
    const auto folded = [&](const std::vector<float> &weight, const std::vector<float> &bias) {
        Matrix w(p.modelSize + 1, p.headSize);
        for (int r = 0; r < p.modelSize; ++r)
            for (int c = 0; c < p.headSize; ++c)
                w.at(r, c) = double(weight[std::size_t(r) * std::size_t(p.headSize) + std::size_t(c)]);
        for (int c = 0; c < p.headSize; ++c)
            w.at(p.modelSize, c) = double(bias[std::size_t(c)]);
        return w;
    };
    inputs.wq = folded(p.wq, p.bq);
    inputs.wk = folded(p.wk, p.bk);
    inputs.wv = folded(p.wv, p.bv);
    return inputs;
}

EmbeddingTable SelfAttentionInputs::projectEmbeddings(const EmbeddingTable &table, int dimensions)
{
    const int rows = int(table.words.size());
    const PrincipalComponents pca = principalComponents(table.values, rows, table.dimensions, dimensions);
    double sumSquares = 0;
    for (double value : pca.projected)
        sumSquares += value * value;
    const double rms = pca.projected.empty() ? 0.0 : std::sqrt(sumSquares / double(pca.projected.size()));
    const double scale = rms > 0 ? randomRms() / rms : 1.0;

    EmbeddingTable projected;
    projected.words = table.words;
    projected.dimensions = pca.components;
    projected.values.reserve(pca.projected.size());
    for (double value : pca.projected)
        projected.values.push_back(float(value * scale));
    return projected;
}

double SelfAttentionInputs::randomRms()
{
    double sum = 0;
    for (int k = -10; k <= 10; ++k)
        sum += (k / 10.0) * (k / 10.0);
    return std::sqrt(sum / 21.0);
}
