#include "engine/charlm/charweights.h"

#include "engine/charlm/chartext.h"

int CharWeights::inputSize(int layer) const
{
    return layer > 0 ? config.hidden : config.embed > 0 ? config.embed : alphabetSize();
}

int64_t CharWeights::parameterCount() const
{
    return charModelParameterCount(config, alphabetSize());
}

std::string CharWeights::checkSizes() const
{
    const std::string problem = validate(config);
    if (!problem.empty())
        return problem;
    if (alphabet.size() < 2)
        return "The model's alphabet has fewer than two characters.";
    const size_t v = alphabet.size(), h = size_t(config.hidden), g = size_t(gateCount(config.cell));
    if (embedding.size() != (config.embed > 0 ? v * size_t(config.embed) : 0))
        return "The embedding has " + std::to_string(embedding.size()) + " values, not alphabet x embed.";
    if (layers.size() != size_t(config.layers))
        return "The model has " + std::to_string(layers.size()) + " layers, not " + std::to_string(config.layers) + ".";
    for (size_t l = 0; l < layers.size(); ++l) {
        const CharLayerWeights &w = layers[l];
        const size_t input = size_t(inputSize(int(l)));
        if (w.inputWeights.size() != g * h * input || w.hiddenWeights.size() != g * h * h ||
            w.inputBias.size() != g * h || w.hiddenBias.size() != g * h)
            return "Layer " + std::to_string(l + 1) + "'s weights do not have the sizes of a " + cellName(config.cell) +
                   " of " + std::to_string(h) + " units.";
    }
    if (outputWeights.size() != v * h || outputBias.size() != v)
        return "The output layer's weights are not alphabet x hidden.";
    return {};
}
