#include "engine/transformer/transformerconfig.h"

const std::vector<ConfigField<TransformerConfig>> &transformerConfigFields()
{
    static const std::vector<ConfigField<TransformerConfig>> fields = {
        integerField<&TransformerConfig::layers>("layers", "layers", 1, 6,
                                                 "Encoder layers, and as many decoder layers: each lets every "
                                                 "position attend once more to the others."),
        integerField<&TransformerConfig::heads>("heads", "attention heads", 1, 8,
                                                "Attention heads per layer: each looks with its own queries, keys "
                                                "and values over a slice of the model width."),
        integerField<&TransformerConfig::modelSize>("d-model", "model width", 8, 1024,
                                                    "Length of every token's vector between the layers (d_model); a "
                                                    "multiple of the number of heads."),
        integerField<&TransformerConfig::feedForwardSize>("feed-forward", "feed-forward width", 1, 8192,
                                                          "Width of the hidden layer of each layer's position-wise "
                                                          "feed-forward block."),
        realField<&TransformerConfig::dropout>("dropout", "dropout", 0, 0.95, 0.05,
                                               "Share of activations zeroed after each sublayer, in the feed-forward "
                                               "block and on the embeddings while training, against overfitting."),
        flagField<&TransformerConfig::preNorm>("pre-ln", "layer norm first (pre-LN)",
                                               "Normalise each sublayer's input (pre-LN, which trains steadily "
                                               "without a long warm-up); off: normalise after the residual, as "
                                               "the 2017 paper does (post-LN)."),
        choiceField<&TransformerConfig::positions>("positions", "positions", {"sinusoidal", "learned"},
                                                   "How a token's position is added to its vector: fixed sines and "
                                                   "cosines of the position, which exist at any length, or a vector "
                                                   "learned per position, which exists only up to the longest "
                                                   "position seen in training."),
        integerField<&TransformerConfig::maxPositions>("max-positions", "longest sequence", 2, 4096,
                                                       "The most tokens a sentence or its output may have, <EOS> "
                                                       "included."),
    };
    return fields;
}

std::string validate(const TransformerConfig &config)
{
    std::string problem = checkFields(config, transformerConfigFields());
    if (problem.empty() && config.modelSize % config.heads != 0)
        problem = "model width must be a multiple of the number of heads (got " + std::to_string(config.modelSize) +
                  " for " + std::to_string(config.heads) + " heads)";
    if (problem.empty() && config.positions == PositionEncoding::Sinusoidal && config.modelSize % 2 != 0)
        problem = "model width must be even for sinusoidal positions (got " + std::to_string(config.modelSize) + ")";
    return problem;
}

int64_t transformerParameterCount(const TransformerConfig &config, int vocabularySize)
{
    const int64_t d = config.modelSize, f = config.feedForwardSize, v = vocabularySize;
    const int64_t attention = 3 * d * d + 3 * d + d * d + d;  // packed in-projection and out-projection
    const int64_t feedForward = f * d + f + d * f + d;
    const int64_t norm = 2 * d;
    const int64_t encoderLayer = attention + feedForward + 2 * norm;
    const int64_t decoderLayer = 2 * attention + feedForward + 3 * norm;
    int64_t count = 2 * v * d + config.layers * (encoderLayer + decoderLayer) + v * d + v;
    if (config.positions == PositionEncoding::Learned)
        count += int64_t(config.maxPositions) * d;
    if (config.preNorm)
        count += 2 * norm;
    return count;
}
