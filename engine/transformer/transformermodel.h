#pragma once

#include "engine/core/datasetconfig.h"
#include "engine/core/epochstats.h"
#include "engine/core/lengthaccuracy.h"
#include "engine/core/sentencepair.h"
#include "engine/core/vocabulary.h"
#include "engine/transformer/transformerbeamsearch.h"
#include "engine/transformer/transformerconfig.h"
#include "engine/transformer/transformerinference.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

class TransformerNetImpl;

// A sentence decoded greedily, and every attention the model took on the way.
struct TransformerOutput {
    std::vector<std::string> sourceTokens;  // the words as read (<UNK> for unknown ones), then <EOS>
    std::vector<std::string> outputTokens;  // as decoded, <EOS> included when the model said it
    LayeredAttention encoderSelf;           // source x source
    LayeredAttention decoderSelf;           // output x output, 0 above the diagonal
    LayeredAttention cross;                 // output x source
};

// One hypothesis of a beam search, as decodeWords() gives a sentence.
struct ScoredTransformerOutput {
    TransformerOutput output;
    std::vector<int> tokens;  // the output's ids, as BeamStep holds them
    double logProb = 0;       // sum of log P(y_t | y_<t)
    double score = 0;         // logProb / |y|^alpha
};

// A sentence decoded by beam search: the n best hypotheses and what each step kept.
struct TransformerBeamOutput {
    std::vector<ScoredTransformerOutput> nbest;  // best score first
    std::vector<BeamStep> steps;                 // token ids; Vocabulary::word() names them
};

// How greedy decoding did on a set of pairs.
struct TransformerScore {
    int sentences = 0;
    int exact = 0;
    int64_t tokens = 0;       // target words and <EOS>
    int64_t tokensRight = 0;  // the same token at the same position
    std::map<int, LengthAccuracy> byLength;  // by source length in words
    double exactMatch() const { return sentences > 0 ? double(exact) / sentences : 0.0; }
    double tokenAccuracy() const { return tokens > 0 ? double(tokensRight) / double(tokens) : 0.0; }
};

// `words` decoded greedily by `inference`, read through `vocabulary` (a word it lacks as <UNK>),
// at most the sentence's length + 2 tokens.
TransformerOutput decodeWords(const TransformerInference &inference, const Vocabulary &vocabulary,
                              const std::vector<std::string> &words);
// `words` read as decodeWords() reads them, the decoder fed `outputTokens` (a word it lacks as
// <UNK>) in place of its own choices (teacher forcing): one step per token, every attention
// recorded, and the result's outputTokens are `outputTokens`. Throws as decodeWords() does.
TransformerOutput decodeWordsAlong(const TransformerInference &inference, const Vocabulary &vocabulary,
                                   const std::vector<std::string> &words,
                                   const std::vector<std::string> &outputTokens);
// `words` decoded by beam search with as many steps as decodeWords() takes; width 1 gives its
// output. Throws std::invalid_argument for invalid options.
TransformerBeamOutput beamDecodeWords(const TransformerInference &inference, const Vocabulary &vocabulary,
                                      const std::vector<std::string> &words, const BeamOptions &options);

// One parameter of the network as plain values: its name in the network
// ("encoder.0.self_attn.in_proj_weight"), its shape and its values, row-major.
struct NamedTensor {
    std::string name;
    std::vector<int64_t> shape;
    std::vector<float> values;
};

// A Transformer with what it reads: its shape, its vocabulary and the task it learns. Callers see
// words, scores and plain weights; the network itself is for the trainer.
class TransformerModel
{
public:
    // Fresh weights, initialised from `seed`: the same seed and settings give the same weights.
    TransformerModel(const TransformerConfig &config, const Vocabulary &vocabulary, Task task, std::uint64_t seed);
    // A model with the weights of `parameters`, as parameters() gave them: every parameter of the
    // network `config` makes, by name, in any order. Throws std::invalid_argument naming the first
    // one missing, extra or of another shape; validate() the config first.
    static TransformerModel withParameters(const TransformerConfig &config, const Vocabulary &vocabulary, Task task,
                                           const std::vector<NamedTensor> &parameters);
    TransformerModel(TransformerModel &&) noexcept;
    TransformerModel &operator=(TransformerModel &&) noexcept;
    ~TransformerModel();

    // decodeWords() on the current weights.
    TransformerOutput decode(const std::vector<std::string> &words) const;
    // beamDecodeWords() on the current weights.
    TransformerBeamOutput beamDecode(const std::vector<std::string> &words, const BeamOptions &options) const;
    // The hand-written decoder of the current weights: immutable, for any thread.
    std::shared_ptr<const TransformerInference> inference() const;
    // Greedy decoding of every pair's source in batches, each output against the task's target.
    TransformerScore score(const std::vector<SentencePair> &pairs) const;

    const TransformerConfig &config() const;
    const Vocabulary &vocabulary() const { return m_vocabulary; }
    Task task() const { return m_task; }
    int64_t parameterCount() const;
    // Every parameter of the network, in its order (buffers such as the sinusoidal positions,
    // which the config makes again, left out).
    std::vector<NamedTensor> parameters() const;
    TransformerNetImpl &net() const;

    std::vector<EpochStats> history;  // one per epoch trained

private:
    struct Impl;
    TransformerModel(std::unique_ptr<Impl> impl, const Vocabulary &vocabulary, Task task);

    std::unique_ptr<Impl> m_impl;
    Vocabulary m_vocabulary;
    Task m_task;
};
