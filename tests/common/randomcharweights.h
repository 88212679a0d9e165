#pragma once

#include "engine/charlm/charweights.h"

#include <random>

// A character model of `config` over `alphabet` with every weight drawn from N(0, scale²): what
// the character lab's tests hold their code to LibTorch's modules and each other with.
inline CharWeights randomCharWeights(const CharModelConfig &config, const std::u32string &alphabet, unsigned seed,
                                     float scale = 0.5f)
{
    std::mt19937 random(seed);
    std::normal_distribution<float> normal(0.0f, scale);
    const auto values = [&](std::size_t count) {
        std::vector<float> v(count);
        for (float &x : v)
            x = normal(random);
        return v;
    };
    CharWeights w;
    w.config = config;
    w.alphabet = alphabet;
    const std::size_t v = alphabet.size(), h = std::size_t(config.hidden), g = std::size_t(gateCount(config.cell));
    w.embedding = values(config.embed > 0 ? v * std::size_t(config.embed) : 0);
    for (int layer = 0; layer < config.layers; ++layer) {
        const std::size_t input = std::size_t(w.inputSize(layer));
        w.layers.push_back({values(g * h * input), values(g * h * h), values(g * h), values(g * h)});
    }
    w.outputWeights = values(v * h);
    w.outputBias = values(v);
    return w;
}
