#pragma once

#include "engine/core/beamsearch.h"
#include "engine/attention/decodedsentence.h"
#include "engine/attention/modelconfig.h"
#include "engine/core/dataset.h"
#include "engine/core/datasetconfig.h"
#include "engine/core/embeddingtable.h"
#include "engine/core/epochstats.h"
#include "engine/core/sentencepair.h"
#include "engine/core/vocabulary.h"

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

struct CheckpointError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct DecodeOptions {
    bool replaceUnknown = true;  // <UNK> output -> the source word attended to most; never without attention
};

// One hypothesis of a beam search, as a decoded sentence (<UNK> replaced as decode() does).
struct ScoredSentence {
    DecodedSentence sentence;
    std::vector<int> tokens;  // as the search saw them (BeamStep's ids)
    double logProb = 0;  // sum of log P(y_t | y_<t)
    double score = 0;    // logProb / |y|^alpha
};

struct BeamDecoded {
    std::vector<ScoredSentence> nbest;     // best score first
    std::vector<BeamStep> steps;           // the hypotheses kept at each step, as token ids
    std::vector<std::string> copiedWords;  // pointer: the source words ids V, V+1, ... copy

    // The word a token id of `steps` stands for.
    const std::string &word(int token, const Vocabulary &vocabulary) const;
};

class Seq2SeqNet;

// A trained (or untrained) model with everything needed to use and describe it: the network,
// its vocabulary, its configuration, the dataset it was trained on and its training history.
// Torch stays behind this class; callers see tokens and plain numbers. Not thread-safe: give
// each thread its own copy (clone()).
class Seq2SeqModel
{
public:
    // An Auto pointer counts as off here; forDataset() decides it from the data.
    Seq2SeqModel(const ModelConfig &config, const Vocabulary &vocabulary, std::uint64_t seed);
    // A new model for `data`, built from `dataset`: the vocabulary of its training split, the pointer
    // decided for a corpus or generated words (resolvedFor), `dataset` recorded.
    static Seq2SeqModel forDataset(const ModelConfig &config, const Dataset &data, const DatasetConfig &dataset,
                                   std::uint64_t seed);
    ~Seq2SeqModel();
    Seq2SeqModel(Seq2SeqModel &&) noexcept;
    Seq2SeqModel &operator=(Seq2SeqModel &&) noexcept;

    // Reads a checkpoint; throws CheckpointError with a clear message for a missing, corrupt,
    // truncated or incompatible file.
    static Seq2SeqModel load(const std::string &path);
    // Writes atomically: a temporary file beside `path`, flushed, then renamed over it.
    void save(const std::string &path) const;
    Seq2SeqModel clone() const;
    // Builds the copy of the weights that one-sentence decoding uses now rather than in the first
    // decode(): 4-20 ms while training keeps the cores busy. Done on the training thread before a
    // snapshot goes to the GUI, so a keystroke after each epoch decodes as fast as the others.
    void prepareDecoding() const;

    // Longest input accepted; longer input is cut and flagged in DecodedSentence.
    static constexpr int kMaxInputTokens = 100;

    DecodedSentence reverse(const std::string &sentence, const DecodeOptions &options = {}) const;
    DecodedSentence decode(const std::vector<std::string> &tokens, const DecodeOptions &options = {}) const;
    // Padded batches; gives the same results as decoding one sentence at a time.
    std::vector<DecodedSentence> decodeBatch(const std::vector<std::vector<std::string>> &sentences,
                                             const DecodeOptions &options = {}) const;
    // Beam search (see beamsearch.h) with the same maximum length as decode(); width 1 gives
    // decode()'s output. Throws std::invalid_argument for invalid options.
    BeamDecoded beamDecode(const std::vector<std::string> &tokens, const BeamOptions &beam,
                           const DecodeOptions &options = {}) const;
    BeamDecoded beamReverse(const std::string &sentence, const BeamOptions &beam,
                            const DecodeOptions &options = {}) const;

    const ModelConfig &config() const;
    const Vocabulary &vocabulary() const;
    bool lowercase() const;
    EmbeddingTable encoderEmbeddings() const;
    EmbeddingTable decoderEmbeddings() const;
    std::int64_t parameterCount() const;
    // False for AttentionKind::None: DecodedSentence::attention stays empty and <UNK> is kept.
    bool hasAttention() const;

    DatasetConfig datasetConfig;        // recorded for display and reproduction
    std::vector<EpochStats> history;

    Seq2SeqNet &net() const;  // engine-internal

private:
    struct Private;
    std::unique_ptr<Private> d;
};
