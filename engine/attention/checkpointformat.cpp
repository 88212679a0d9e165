#include "engine/attention/checkpointformat.h"

#include "engine/attention/seq2seqmodel.h"
#include "engine/attention/seq2seqnet.h"
#include "engine/core/binaryio.h"
#include "engine/core/configrecord.h"

#include <map>
#include <set>

namespace checkpointformat {
namespace {

// Formats 1 to 3 wrote the configs field by field, by position. Read only, for the files they wrote.
ModelConfig readOldModelConfig(BinaryReader &r, std::uint32_t version)
{
    ModelConfig config;
    config.embedSize = r.integer();
    config.hiddenSize = r.integer();
    config.layers = r.integer();
    config.dropout = r.f64();
    config.bidirectional = r.u32() != 0;
    if (version >= 2) {
        const std::string attention = r.string(64);
        if (!parseAttention(attention, &config.attention))
            throw CheckpointError("the checkpoint's attention variant '" + attention + "' is unknown");
    }
    config.pointer = version >= 3 && r.u32() != 0 ? PointerMode::On : PointerMode::Off;
    return config;
}

DatasetConfig readOldDatasetConfig(BinaryReader &r)
{
    DatasetConfig c;
    c.task = r.u32() == 1 ? Task::Copy : Task::Reverse;
    c.words.resize(r.count(/*itemBytes=*/4, 1u << 24));
    for (auto &word : c.words)
        word = r.string();
    c.corpusPath = r.string();
    for (int *v : {&c.minLength, &c.maxLength, &c.trainSize, &c.valSize, &c.testSize, &c.maxVocabulary, &c.minCount})
        *v = r.integer();
    c.valFraction = r.f64();
    c.testFraction = r.f64();
    c.lowercase = r.u32() != 0;
    c.seed = std::uint64_t(r.i64());
    return c;
}

std::string shapeText(const std::vector<std::int64_t> &shape)
{
    std::string s = "[";
    for (std::size_t i = 0; i < shape.size(); ++i)
        s += (i ? "x" : "") + std::to_string(shape[i]);
    return s + "]";
}

}

std::string encode(const Seq2SeqModel &model)
{
    BinaryWriter w;
    writeConfig(w, model.config(), modelConfigFields());
    const auto &words = model.vocabulary().words();
    w.u32(std::uint32_t(words.size()));
    for (const auto &word : words)
        w.string(word);
    writeDatasetConfig(w, model.datasetConfig);
    w.u32(std::uint32_t(model.history.size()));
    for (const EpochStats &e : model.history) {
        w.i64(e.epoch);
        for (double v : {e.trainLoss, e.valLoss, e.valExactMatch, e.seconds, e.samplesPerSecond})
            w.f64(v);
    }
    const auto named = model.net()->named_parameters(/*recurse=*/true);
    w.u32(std::uint32_t(named.size()));
    for (const auto &item : named) {
        const torch::Tensor t = item.value().detach().to(torch::kFloat).contiguous();
        w.string(item.key());
        w.u32(std::uint32_t(t.dim()));
        for (auto size : t.sizes())
            w.i64(size);
        w.floats(t.data_ptr<float>(), std::size_t(t.numel()));
    }

    return signedfile::wrap(kSignature, kVersion, w.bytes());
}

Seq2SeqModel decode(const std::string &bytes)
{
    signedfile::Payload payload;
    try {
        payload = signedfile::unwrap(bytes, kSignature, kVersion, "checkpoint",
                                     "not an AttnScope checkpoint");
    } catch (const signedfile::Error &e) {
        throw CheckpointError(e.what());
    }
    const std::uint32_t version = payload.version;

    try {
        BinaryReader r(payload.data, payload.size);
        const ModelConfig config
            = version >= 4 ? readConfig(r, modelConfigFields(), "model") : readOldModelConfig(r, version);
        const std::string problem = validate(config);
        if (!problem.empty())
            throw CheckpointError("the checkpoint's model settings are invalid: " + problem);
        std::vector<std::string> words(r.count(/*itemBytes=*/4, 1u << 24));
        for (auto &word : words)
            word = r.string();
        if (words.size() < 4 || words[0] != "<PAD>" || words[1] != "<SOS>" || words[2] != "<EOS>" || words[3] != "<UNK>"
            || std::set<std::string>(words.begin(), words.end()).size() != words.size())
            throw CheckpointError("the checkpoint's vocabulary is invalid");
        Vocabulary vocabulary(std::vector<std::string>(words.begin() + 4, words.end()));
        DatasetConfig dataset = version >= 4 ? readDatasetConfig(r) : readOldDatasetConfig(r);
        std::vector<EpochStats> history(r.count(/*itemBytes=*/48, 1u << 20));
        for (EpochStats &e : history) {
            e.epoch = r.integer();
            for (double *v : {&e.trainLoss, &e.valLoss, &e.valExactMatch, &e.seconds, &e.samplesPerSecond})
                *v = r.f64();
        }

        std::map<std::string, std::pair<std::vector<std::int64_t>, std::vector<float>>> tensors;
        std::uint64_t storedFloats = 0;
        const std::uint32_t count = r.count(/*itemBytes=*/8, 4096);
        for (std::uint32_t i = 0; i < count; ++i) {
            std::string name = r.string(1024);
            std::vector<std::int64_t> shape(r.count(/*itemBytes=*/8, 8));
            std::uint64_t elements = 1;
            for (auto &size : shape) {
                size = r.i64();
                if (size < 0 || size > (1ll << 31))
                    throw BinaryFormatError("tensor size out of range");
                elements *= std::uint64_t(size);
                if (elements > std::uint64_t(payload.size))
                    throw BinaryFormatError("tensor larger than the file");
            }
            std::vector<float> values(elements);
            r.floats(values.data(), values.size());
            storedFloats += elements;
            tensors[name] = {std::move(shape), std::move(values)};
        }
        if (!r.atEnd())
            throw BinaryFormatError("unexpected bytes after the last tensor");

        // Each product of two of the vocabulary, embedding and hidden sizes is the size of one weight
        // matrix (embeddings, GRU input and recurrent weights, output layer), so none can exceed
        // the floats stored. Checked before the model is built: a few damaged bytes must not make
        // it allocate gigabytes.
        const std::uint64_t v = std::uint64_t(vocabulary.size()), e = std::uint64_t(config.embedSize),
                            h = std::uint64_t(config.hiddenSize);
        if (v * e > storedFloats || h * h > storedFloats || h * e > storedFloats || h * v > storedFloats)
            throw CheckpointError("the checkpoint holds " + std::to_string(storedFloats)
                                  + " weights, too few for its model settings");
        Seq2SeqModel model(config, vocabulary, 0);
        torch::NoGradGuard noGrad;
        const auto named = model.net()->named_parameters(true);
        if (named.size() != tensors.size())
            throw CheckpointError("the checkpoint holds " + std::to_string(tensors.size()) + " tensors; its model has "
                                  + std::to_string(named.size()));
        for (const auto &item : named) {
            auto found = tensors.find(item.key());
            if (found == tensors.end())
                throw CheckpointError("the checkpoint has no tensor '" + item.key() + "'");
            const auto &[shape, values] = found->second;
            const auto expected = item.value().sizes().vec();
            if (shape != expected)
                throw CheckpointError("tensor '" + item.key() + "' is " + shapeText(shape) + " in the checkpoint but "
                                      + shapeText(expected) + " in its model");
            item.value().copy_(torch::from_blob(const_cast<float *>(values.data()), shape, torch::kFloat));
        }
        model.datasetConfig = std::move(dataset);
        model.history = std::move(history);
        return model;
    } catch (const BinaryFormatError &e) {
        throw CheckpointError(std::string("the checkpoint is malformed: ") + e.what());
    }
}

}
