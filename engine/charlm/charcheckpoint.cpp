#include "engine/charlm/charcheckpoint.h"

#include "engine/core/atomicfile.h"
#include "engine/core/binaryio.h"
#include "engine/core/configrecord.h"

namespace charcheckpoint {
namespace {

constexpr uint32_t kLastCodePoint = 0x10FFFF;
constexpr std::size_t kEpochBytes = 6 * 8;

// Format 1 wrote the configs field by field, by position. Read only, for the files it wrote.
CharModelConfig readOldModelConfig(BinaryReader &r)
{
    CharModelConfig config;
    config.cell = RecurrentCell(r.choice(3, "cell"));
    config.hidden = r.integer();
    config.layers = r.integer();
    config.embed = r.integer();
    return config;
}

CharTrainingConfig readOldTrainingConfig(BinaryReader &r)
{
    CharTrainingConfig t;
    t.seqLen = r.integer();
    t.batch = r.integer();
    t.lr = r.f64();
    t.optimizer = CharOptimizer(r.choice(2, "optimiser"));  // format 1 knew Adam and Adagrad
    t.epochs = r.integer();
    t.clip = r.f64();
    t.val = r.f64();
    t.seed = uint64_t(r.i64());
    t.threads = r.integer();
    return t;
}

}

std::string encode(const CharCheckpoint &checkpoint)
{
    const CharWeights &weights = checkpoint.weights;
    const std::string problem = weights.checkSizes();
    if (!problem.empty())
        throw CharCheckpointError("cannot save the model: " + problem);
    BinaryWriter w;
    writeConfig(w, weights.config, charModelFields());
    w.u32(uint32_t(weights.alphabet.size()));
    for (char32_t c : weights.alphabet)
        w.u32(uint32_t(c));
    w.floatArray(weights.embedding);
    for (const CharLayerWeights &layer : weights.layers)
        for (const std::vector<float> *values : {&layer.inputWeights, &layer.hiddenWeights, &layer.inputBias, &layer.hiddenBias})
            w.floatArray(*values);
    w.floatArray(weights.outputWeights);
    w.floatArray(weights.outputBias);

    writeConfig(w, checkpoint.training, charTrainingFields());

    w.u32(uint32_t(checkpoint.history.size()));
    for (const CharEpoch &e : checkpoint.history) {
        w.i64(e.epoch);
        for (double v : {e.trainBitsPerChar, e.validationBitsPerChar, e.seconds, e.charsPerSecond})
            w.f64(v);
        w.i64(e.iteration);
    }

    return signedfile::wrap(kSignature, kVersion, w.bytes());
}

CharCheckpoint decode(const std::string &bytes)
{
    signedfile::Payload payload;
    try {
        payload = signedfile::unwrap(bytes, kSignature, kVersion, "checkpoint",
                                     "not a character model checkpoint");
    } catch (const signedfile::Error &e) {
        throw CharCheckpointError(e.what());
    }

    try {
        BinaryReader r(payload.data, payload.size);
        CharCheckpoint checkpoint;
        CharWeights &weights = checkpoint.weights;
        CharModelConfig &config = weights.config;
        config = payload.version >= 2 ? readConfig(r, charModelFields(), "model") : readOldModelConfig(r);
        const std::string problem = validate(config);
        if (!problem.empty())
            throw CharCheckpointError("the checkpoint's model settings are invalid: " + problem);

        const uint32_t characters = r.u32();
        if (characters < 2 || characters > kLastCodePoint + 1 || characters > r.remaining() / 4)
            throw BinaryFormatError("alphabet size out of range");
        // Every weight must fit in what is left of the file before any is allocated.
        if (uint64_t(charModelParameterCount(config, int(characters))) > r.remaining() / sizeof(float))
            throw CharCheckpointError("the checkpoint holds too few weights for a " + std::string(cellName(config.cell)) +
                                      " of " + std::to_string(config.layers) + " x " + std::to_string(config.hidden) +
                                      " units over " + std::to_string(characters) + " characters");
        weights.alphabet.resize(characters);
        for (std::size_t i = 0; i < weights.alphabet.size(); ++i) {
            const uint32_t c = r.u32();
            if (c > kLastCodePoint || (i > 0 && c <= uint32_t(weights.alphabet[i - 1])))
                throw CharCheckpointError("the checkpoint's alphabet is not a sorted list of distinct characters");
            weights.alphabet[i] = char32_t(c);
        }

        const std::size_t v = characters, h = std::size_t(config.hidden), g = std::size_t(gateCount(config.cell));
        weights.embedding = r.floatArray(config.embed > 0 ? v * std::size_t(config.embed) : 0, "the embedding");
        weights.layers.resize(std::size_t(config.layers));
        for (std::size_t l = 0; l < weights.layers.size(); ++l) {
            CharLayerWeights &layer = weights.layers[l];
            const std::size_t input = std::size_t(weights.inputSize(int(l)));
            layer.inputWeights = r.floatArray(g * h * input, "a layer's input weights");
            layer.hiddenWeights = r.floatArray(g * h * h, "a layer's recurrent weights");
            layer.inputBias = r.floatArray(g * h, "a layer's input bias");
            layer.hiddenBias = r.floatArray(g * h, "a layer's recurrent bias");
        }
        weights.outputWeights = r.floatArray(v * h, "the output weights");
        weights.outputBias = r.floatArray(v, "the output bias");
        const std::string sizes = weights.checkSizes();
        if (!sizes.empty())
            throw CharCheckpointError("the checkpoint's weights are inconsistent: " + sizes);

        CharTrainingConfig &t = checkpoint.training;
        t = payload.version >= 2 ? readConfig(r, charTrainingFields(), "training") : readOldTrainingConfig(r);
        const std::string training = validate(t);
        if (!training.empty())
            throw CharCheckpointError("the checkpoint's training settings are invalid: " + training);

        checkpoint.history.resize(r.count(kEpochBytes));
        for (CharEpoch &e : checkpoint.history) {
            e.epoch = r.integer();
            for (double *v : {&e.trainBitsPerChar, &e.validationBitsPerChar, &e.seconds, &e.charsPerSecond})
                *v = r.f64();
            e.iteration = r.i64();
        }
        if (!r.atEnd())
            throw BinaryFormatError("unexpected bytes after the history");
        return checkpoint;
    } catch (const BinaryFormatError &e) {
        throw CharCheckpointError(std::string("the checkpoint is malformed: ") + e.what());
    }
}

}

void saveCharCheckpoint(const std::string &path, const CharCheckpoint &checkpoint)
{
    const std::string bytes = charcheckpoint::encode(checkpoint);
    try {
        writeFileAtomically(path, bytes);
    } catch (const std::runtime_error &e) {
        throw CharCheckpointError(e.what());
    }
}

CharCheckpoint loadCharCheckpoint(const std::string &path)
{
    std::string bytes;
    try {
        bytes = readWholeFile(path, std::size_t(4) << 30);
    } catch (const std::runtime_error &e) {
        throw CharCheckpointError(e.what());
    }
    try {
        return charcheckpoint::decode(bytes);
    } catch (const CharCheckpointError &e) {
        throw CharCheckpointError("cannot load '" + path + "': " + e.what());
    }
}
