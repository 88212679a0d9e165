#include "engine/transformer/transformercheckpoint.h"

#include "engine/core/atomicfile.h"
#include "engine/core/binaryio.h"
#include "engine/core/configrecord.h"

#include <algorithm>
#include <set>

namespace transformercheckpoint {
namespace {

constexpr std::size_t kEpochBytes = 8 * 8;  // the epoch as an i64, then seven doubles
constexpr std::uint32_t kMaxWords = 1u << 24;
constexpr std::uint32_t kMaxEpochs = 1u << 20;
constexpr std::uint32_t kMaxTensors = 4096;
constexpr std::uint32_t kMaxDimensions = 8;
constexpr std::size_t kMaxNameLength = 1024;
constexpr std::size_t kMaxFileBytes = std::size_t(4) << 30;

void writeHistory(BinaryWriter &w, const std::vector<EpochStats> &history)
{
    w.u32(std::uint32_t(history.size()));
    for (const EpochStats &e : history) {
        w.i64(e.epoch);
        for (double v : {e.trainLoss, e.valLoss, e.valExactMatch, e.seconds, e.samplesPerSecond, e.learningRate,
                         e.gradientNorm})
            w.f64(v);
    }
}

std::vector<EpochStats> readHistory(BinaryReader &r)
{
    std::vector<EpochStats> history(r.count(kEpochBytes, kMaxEpochs));
    for (EpochStats &e : history) {
        e.epoch = r.integer();
        for (double *v : {&e.trainLoss, &e.valLoss, &e.valExactMatch, &e.seconds, &e.samplesPerSecond,
                          &e.learningRate, &e.gradientNorm})
            *v = r.f64();
    }
    return history;
}

Vocabulary readVocabulary(BinaryReader &r)
{
    std::vector<std::string> words(r.count(/*itemBytes=*/4, kMaxWords));
    for (std::string &word : words)
        word = r.string();
    const Vocabulary specials;
    if (words.size() < specials.words().size() || !std::equal(specials.words().begin(), specials.words().end(), words.begin()) ||
        std::set<std::string>(words.begin(), words.end()).size() != words.size())
        throw TransformerCheckpointError("the checkpoint's vocabulary is invalid");
    return Vocabulary(std::vector<std::string>(words.begin() + std::ptrdiff_t(specials.words().size()), words.end()));
}

// One tensor: its values are allocated only once its shape is known to fit in the rest of the file.
NamedTensor readTensor(BinaryReader &r)
{
    NamedTensor tensor;
    tensor.name = r.string(kMaxNameLength);
    tensor.shape.resize(r.count(/*itemBytes=*/8, kMaxDimensions));
    std::uint64_t elements = 1;
    for (int64_t &size : tensor.shape) {
        size = r.i64();
        if (size < 0 || std::uint64_t(size) > r.remaining())
            throw BinaryFormatError("tensor '" + tensor.name + "' has a size out of range");
        elements *= std::uint64_t(size);
        if (elements > r.remaining())
            throw BinaryFormatError("tensor '" + tensor.name + "' is larger than the file");
    }
    if (elements > r.remaining() / sizeof(float))
        throw BinaryFormatError("tensor '" + tensor.name + "' is larger than the file");
    tensor.values.resize(std::size_t(elements));
    r.floats(tensor.values.data(), tensor.values.size());
    return tensor;
}

template <typename Config>
void check(const Config &config, const std::string &what)
{
    const std::string problem = validate(config);
    if (!problem.empty())
        throw TransformerCheckpointError("the checkpoint's " + what + " settings are invalid: " + problem);
}

}  // namespace

std::string encode(const TransformerModel &model, const DatasetConfig &dataset,
                   const TransformerTrainingConfig &training)
{
    BinaryWriter w;
    writeConfig(w, model.config(), transformerConfigFields());
    const std::vector<std::string> &words = model.vocabulary().words();
    w.u32(std::uint32_t(words.size()));
    for (const std::string &word : words)
        w.string(word);
    w.string(taskName(model.task()));
    writeDatasetConfig(w, dataset);
    writeConfig(w, training, transformerTrainingConfigFields());
    writeHistory(w, model.history);
    const std::vector<NamedTensor> tensors = model.parameters();
    w.u32(std::uint32_t(tensors.size()));
    for (const NamedTensor &tensor : tensors) {
        w.string(tensor.name);
        w.u32(std::uint32_t(tensor.shape.size()));
        for (int64_t size : tensor.shape)
            w.i64(size);
        w.floats(tensor.values.data(), tensor.values.size());
    }
    return signedfile::wrap(kSignature, kVersion, w.bytes());
}

TransformerCheckpoint decode(const std::string &bytes)
{
    signedfile::Payload payload;
    try {
        payload = signedfile::unwrap(bytes, kSignature, kVersion, "checkpoint", "not a Transformer checkpoint");
    } catch (const signedfile::Error &e) {
        throw TransformerCheckpointError(e.what());
    }
    try {
        BinaryReader r(payload.data, payload.size);
        const TransformerConfig config = readConfig(r, transformerConfigFields(), "model");
        check(config, "model");
        const Vocabulary vocabulary = readVocabulary(r);
        const std::string name = r.string(64);
        Task task;
        if (!parseTask(name, &task))
            throw TransformerCheckpointError("the checkpoint's task '" + name + "' is unknown");
        DatasetConfig dataset = readDatasetConfig(r);
        check(dataset, "dataset");
        if (dataset.task != task)
            throw TransformerCheckpointError(std::string("the checkpoint's model learns to ") + taskName(task) +
                                             " but its data asks to " + taskName(dataset.task));
        const TransformerTrainingConfig training = readConfig(r, transformerTrainingConfigFields(), "training");
        check(training, "training");
        std::vector<EpochStats> history = readHistory(r);

        std::vector<NamedTensor> tensors(r.count(/*itemBytes=*/8, kMaxTensors));
        std::uint64_t storedWeights = 0;
        for (NamedTensor &tensor : tensors) {
            tensor = readTensor(r);
            storedWeights += tensor.values.size();
        }
        if (!r.atEnd())
            throw BinaryFormatError("unexpected bytes after the last tensor");

        // Before the network is built: its size follows from the settings, and a few damaged bytes
        // in them must not make it allocate gigabytes.
        const int64_t expected = transformerParameterCount(config, vocabulary.size());
        if (storedWeights != std::uint64_t(expected))
            throw TransformerCheckpointError("the checkpoint holds " + std::to_string(storedWeights) +
                                             " weights; its settings and vocabulary make " + std::to_string(expected));
        TransformerModel model = TransformerModel::withParameters(config, vocabulary, task, tensors);
        model.history = std::move(history);
        return TransformerCheckpoint{std::move(model), std::move(dataset), training};
    } catch (const BinaryFormatError &e) {
        throw TransformerCheckpointError(std::string("the checkpoint is malformed: ") + e.what());
    } catch (const std::invalid_argument &e) {
        throw TransformerCheckpointError(std::string("the checkpoint's weights do not fit its settings: ") + e.what());
    }
}

}  // namespace transformercheckpoint

void saveTransformerCheckpoint(const std::string &path, const TransformerModel &model, const DatasetConfig &dataset,
                               const TransformerTrainingConfig &training)
{
    const std::string bytes = transformercheckpoint::encode(model, dataset, training);
    try {
        writeFileAtomically(path, bytes);
    } catch (const std::runtime_error &e) {
        throw TransformerCheckpointError(e.what());
    }
}

TransformerCheckpoint loadTransformerCheckpoint(const std::string &path)
{
    std::string bytes;
    try {
        bytes = readWholeFile(path, transformercheckpoint::kMaxFileBytes);
    } catch (const std::runtime_error &e) {
        throw TransformerCheckpointError(e.what());
    }
    try {
        return transformercheckpoint::decode(bytes);
    } catch (const TransformerCheckpointError &e) {
        throw TransformerCheckpointError("cannot load '" + path + "': " + e.what());
    }
}
