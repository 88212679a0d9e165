#pragma once

#include "engine/attention/checkpointformat.h"
#include "engine/attention/seq2seqmodel.h"
#include "engine/core/binaryio.h"

#include <string>

// `model` as checkpoint formats 1 to 3 wrote it, the configs field by field: the encoder of those
// versions, kept to make their files. Format 1 holds a Bahdanau model, 2 adds the attention
// variant's name, 3 the pointer flag. The tensors, written alike in every format, are taken from
// the current format's encoding.
inline std::string oldFormatCheckpoint(const Seq2SeqModel &model, unsigned format)
{
    const std::string current = checkpointformat::encode(model);
    BinaryReader r(current.data() + signedfile::kHeaderSize, current.size() - signedfile::kHeaderSize);
    r.string();  // the model's settings
    for (std::uint32_t n = r.u32(); n > 0; --n)
        r.string();
    r.string();  // the dataset's settings, then its words
    for (std::uint32_t n = r.u32(); n > 0; --n)
        r.string();
    for (std::uint32_t n = r.u32(); n > 0; --n) {
        r.i64();
        for (int i = 0; i < 5; ++i)
            r.f64();
    }
    const std::string tensors = current.substr(current.size() - r.remaining());

    BinaryWriter w;
    const ModelConfig &c = model.config();
    for (int v : {c.embedSize, c.hiddenSize, c.layers})
        w.i64(v);
    w.f64(c.dropout);
    w.u32(c.bidirectional);
    if (format >= 2)
        w.string(attentionName(c.attention));
    if (format >= 3)
        w.u32(c.usesPointer());
    const std::vector<std::string> &words = model.vocabulary().words();
    w.u32(std::uint32_t(words.size()));
    for (const std::string &word : words)
        w.string(word);
    const DatasetConfig &d = model.datasetConfig;
    w.u32(d.task == Task::Copy ? 1 : 0);
    w.u32(std::uint32_t(d.words.size()));
    for (const std::string &word : d.words)
        w.string(word);
    w.string(d.corpusPath);
    for (int v : {d.minLength, d.maxLength, d.trainSize, d.valSize, d.testSize, d.maxVocabulary, d.minCount})
        w.i64(v);
    w.f64(d.valFraction);
    w.f64(d.testFraction);
    w.u32(d.lowercase);
    w.i64(std::int64_t(d.seed));
    w.u32(std::uint32_t(model.history.size()));
    for (const EpochStats &e : model.history) {
        w.i64(e.epoch);
        for (double v : {e.trainLoss, e.valLoss, e.valExactMatch, e.seconds, e.samplesPerSecond})
            w.f64(v);
    }
    return signedfile::wrap(checkpointformat::kSignature, format, w.bytes() + tensors);
}
