#include "engine/attention/projectfile.h"

#include "engine/attention/checkpointformat.h"
#include "engine/attention/seq2seqmodel.h"
#include "engine/core/atomicfile.h"
#include "engine/core/binaryio.h"
#include "engine/core/configrecord.h"

#include <fstream>
#include <string_view>
#include <vector>

namespace projectfile {
namespace {

constexpr std::size_t kMaxFileBytes = std::size_t(4) << 30;
constexpr std::size_t kEpochStatsBytes = 8 + 5 * 8;

void writeHistory(BinaryWriter &w, const std::vector<EpochStats> &history)
{
    w.u32(std::uint32_t(history.size()));
    for (const EpochStats &e : history) {
        w.i64(e.epoch);
        for (double v : {e.trainLoss, e.valLoss, e.valExactMatch, e.seconds, e.samplesPerSecond})
            w.f64(v);
    }
}

std::vector<EpochStats> readHistory(BinaryReader &r)
{
    std::vector<EpochStats> history(r.count(kEpochStatsBytes));
    for (EpochStats &e : history) {
        e.epoch = r.integer();
        for (double *v : {&e.trainLoss, &e.valLoss, &e.valExactMatch, &e.seconds, &e.samplesPerSecond})
            *v = r.f64();
    }
    return history;
}

void writeExperiment(BinaryWriter &w, const ExperimentRecord &e)
{
    w.string(e.label);
    writeConfig(w, e.model, modelConfigFields());
    w.i64(std::int64_t(e.seed));
    writeHistory(w, e.history);
    w.f64(e.testExactMatch);
    w.u32(std::uint32_t(e.probeByLength.size()));
    for (const auto &[length, bucket] : e.probeByLength)
        for (int v : {length, bucket.correct, bucket.total})
            w.i64(v);
}

ExperimentRecord readExperiment(BinaryReader &r)
{
    ExperimentRecord e;
    e.label = r.string();
    e.model = readConfig(r, modelConfigFields(), "experiment's model");
    e.seed = std::uint64_t(r.i64());
    e.history = readHistory(r);
    e.testExactMatch = r.f64();
    for (std::uint32_t n = r.count(3 * 8); n > 0; --n) {
        const int length = r.integer();
        LengthAccuracy &bucket = e.probeByLength[length];
        bucket.correct = r.integer();
        bucket.total = r.integer();
    }
    return e;
}

std::string readCorpusFile(const std::string &path)
{
    try {
        return readWholeFile(path, std::size_t(256) << 20);
    } catch (const std::runtime_error &e) {
        throw ProjectError("cannot read the corpus file: " + std::string(e.what()));
    }
}

// The payload as the pieces it is written in: the model and the weights' history, tens of
// megabytes each, stay in their own strings instead of being copied into one.
struct Payload {
    std::string head, model, historyLength, history, tail;
    std::vector<std::string_view> pieces() const { return {head, model, historyLength, history, tail}; }
};

Payload payloadOf(const AttentionProject &p)
{
    if (!p.best)
        throw std::invalid_argument("a project needs a trained model");
    Payload payload;
    payload.model = checkpointformat::encode(*p.best);
    payload.history = p.weights.encode();

    BinaryWriter w;
    writeDatasetConfig(w, p.dataset);
    writeConfig(w, p.model, modelConfigFields());
    writeConfig(w, p.training, trainingConfigFields());
    w.i64(p.threadsUsed);

    w.u32(p.corpus.embedded);
    w.string(p.corpus.embedded ? p.corpus.text : std::string());
    w.u32(p.corpus.crc);
    w.i64(std::int64_t(p.corpus.bytes));
    w.u32(std::uint32_t(payload.model.size()));  // BinaryWriter::string()'s length, its bytes the next piece
    payload.head = w.release();

    BinaryWriter length;
    length.u32(std::uint32_t(payload.history.size()));
    payload.historyLength = length.release();

    BinaryWriter t;
    t.u32(std::uint32_t(p.alignment.size()));
    for (const EpochAlignment &a : p.alignment) {
        for (int v : {a.epoch, a.score.steps, a.score.alignedSteps})
            t.i64(v);
        t.f64(a.score.rightWeight);
    }
    t.u32(std::uint32_t(p.experiments.size()));
    for (const ExperimentRecord &e : p.experiments)
        writeExperiment(t, e);
    t.i64(p.experimentSeeds);

    t.string(p.sentence);
    t.i64(p.selectedRow);
    t.i64(p.selectedColumn);
    payload.tail = t.release();
    return payload;
}

}

std::string encode(const AttentionProject &p)
{
    const Payload payload = payloadOf(p);
    std::string bytes = signedfile::header(kSignature, kVersion, payload.pieces());
    for (std::string_view piece : payload.pieces())
        bytes += piece;
    return bytes;
}

AttentionProject decode(const std::string &bytes)
{
    if (signedfile::startsWith(bytes, checkpointformat::kSignature))
        throw ProjectError("this is an AttnScope model checkpoint, not a project; open it as a model (.ckpt)");
    signedfile::Payload payload;
    try {
        payload = signedfile::unwrap(bytes, kSignature, kVersion, "project",
                                     "not an AttnScope project");
    } catch (const signedfile::Error &e) {
        throw ProjectError(e.what());
    }

    try {
        BinaryReader r(payload.data, payload.size);
        AttentionProject p;
        p.dataset = readDatasetConfig(r);
        p.model = readConfig(r, modelConfigFields(), "model");
        p.training = readConfig(r, trainingConfigFields(), "training");
        p.threadsUsed = r.integer();

        CorpusCopy &corpus = p.corpus;
        corpus.embedded = r.u32() != 0;
        corpus.text = r.block();
        corpus.crc = r.u32();
        corpus.bytes = std::uint64_t(r.i64());
        if (corpus.embedded
            && (corpus.text.size() != corpus.bytes || crc32(corpus.text.data(), corpus.text.size()) != corpus.crc))
            throw ProjectError("the project's embedded corpus does not match its checksum");

        const std::string checkpoint = r.block();
        const std::string weights = r.block();
        p.alignment.resize(r.count(/*itemBytes=*/4 * 8));
        for (EpochAlignment &a : p.alignment) {
            a.epoch = r.integer();
            a.score.steps = r.integer();
            a.score.alignedSteps = r.integer();
            a.score.rightWeight = r.f64();
        }
        p.experiments.resize(r.count(/*itemBytes=*/4 + 4 + 8 + 4 + 8 + 4));
        for (ExperimentRecord &e : p.experiments)
            e = readExperiment(r);
        p.experimentSeeds = r.integer();
        if (p.experimentSeeds < 1 || p.experimentSeeds > kMaxExperimentSeeds)
            throw BinaryFormatError("the experiments' seeds per configuration, " + std::to_string(p.experimentSeeds)
                                    + ", is outside 1.." + std::to_string(kMaxExperimentSeeds));
        p.sentence = r.block();
        p.selectedRow = r.integer();
        p.selectedColumn = r.integer();
        if (!r.atEnd())
            throw BinaryFormatError("unexpected bytes after the selected cell");

        // The largest parts last, once everything around them has checked out.
        try {
            p.best = std::make_shared<const Seq2SeqModel>(checkpointformat::decode(checkpoint));
        } catch (const CheckpointError &e) {
            throw ProjectError(std::string("the project's model is damaged: ") + e.what());
        }
        p.weights = WeightHistory::decode(weights);
        if (const std::string problem = p.weights.mismatch(*p.best); !problem.empty())
            throw ProjectError("the project's weight history does not fit its model: " + problem);
        return p;
    } catch (const BinaryFormatError &e) {
        throw ProjectError(std::string("the project is malformed: ") + e.what());
    }
}

bool isProjectFile(const std::string &path)
{
    std::string start(sizeof(signedfile::Signature), '\0');
    std::ifstream in(path, std::ios::binary);
    return in.read(start.data(), std::streamsize(start.size())) && signedfile::startsWith(start, kSignature);
}

void save(const AttentionProject &project, const std::string &path)
{
    const Payload payload = payloadOf(project);
    std::vector<std::string_view> pieces = payload.pieces();
    const std::string header = signedfile::header(kSignature, kVersion, pieces);
    pieces.insert(pieces.begin(), header);
    try {
        writeFileAtomically(path, pieces);
    } catch (const std::runtime_error &e) {
        throw ProjectError(e.what());
    }
}

AttentionProject load(const std::string &path)
{
    std::string bytes;
    try {
        bytes = readWholeFile(path, kMaxFileBytes);
    } catch (const std::runtime_error &e) {
        throw ProjectError(e.what());
    }
    try {
        return decode(bytes);
    } catch (const ProjectError &e) {
        throw ProjectError("cannot open '" + path + "': " + e.what());
    }
}

CorpusCopy copyCorpus(const std::string &path, bool embed)
{
    CorpusCopy copy;
    std::string text = readCorpusFile(path);
    copy.crc = crc32(text.data(), text.size());
    copy.bytes = text.size();
    copy.embedded = embed;
    if (embed)
        copy.text = std::move(text);
    return copy;
}

std::string corpusFileProblem(const AttentionProject &project)
{
    const std::string &path = project.dataset.corpusPath;
    if (path.empty())
        return {};
    if (!std::ifstream(path, std::ios::binary))
        return "the corpus file '" + path + "' is missing";
    std::string text;
    try {
        text = readCorpusFile(path);
    } catch (const ProjectError &e) {
        return e.what();
    }
    if (text.size() != project.corpus.bytes || crc32(text.data(), text.size()) != project.corpus.crc)
        return "the corpus file '" + path + "' has changed since the project was saved";
    return {};
}

}
