#include "engine/attention/seq2seqmodel.h"

#include "engine/attention/checkpointformat.h"
#include "engine/attention/inferencenet.h"
#include "engine/attention/pointermixture.h"
#include "engine/attention/seq2seqnet.h"
#include "engine/core/atomicfile.h"
#include "engine/core/batch.h"
#include "engine/core/corpusdefaults.h"
#include "engine/core/evalmodescope.h"
#include "engine/core/tokenizer.h"
#include "engine/fast/singlethreadscope.h"

#include <algorithm>
#include <memory>

struct Seq2SeqModel::Private {
    ModelConfig config;
    Vocabulary vocabulary;
    Seq2SeqNet net{nullptr};
};

namespace {

EmbeddingTable tableOf(const torch::Tensor &weight, const Vocabulary &vocabulary)
{
    const torch::Tensor w = weight.detach().to(torch::kFloat).contiguous();
    EmbeddingTable table;
    table.words = vocabulary.words();
    table.dimensions = int(w.size(1));
    table.values.assign(w.data_ptr<float>(), w.data_ptr<float>() + w.numel());
    return table;
}

// The source side of a decoded sentence (words cut to kMaxInputTokens, then <EOS>), and the ids
// the encoder reads (without <EOS>: makeSourceBatch adds it) with their extended form.
DecodedSentence sourceSide(const std::vector<std::string> &words, const Vocabulary &vocabulary, ExtendedSource *ids)
{
    DecodedSentence r;
    const std::size_t kept = std::min(words.size(), std::size_t(Seq2SeqModel::kMaxInputTokens));
    r.truncatedInput = words.size() > kept;
    r.sourceTokens.assign(words.begin(), words.begin() + std::ptrdiff_t(kept));
    *ids = extendedSource(r.sourceTokens, vocabulary);
    for (const auto &w : r.sourceTokens)
        r.sourceKnown.push_back(vocabulary.contains(w));
    r.sourceTokens.push_back("<EOS>");
    r.sourceKnown.push_back(true);
    return r;
}

// Appends one decoder step to `r`: its attention row (null without attention), p_gen (negative
// without the pointer) and its word. An extended id is the unknown source word it copies. Without
// the pointer an <UNK> becomes the source word attended to most, unless that is the final <EOS>.
void appendOutput(DecodedSentence &r, int token, const float *attentionRow, float copyGate, const ExtendedSource &source,
                  const Vocabulary &vocabulary, bool replaceUnknown)
{
    const int64_t columns = int64_t(r.sourceTokens.size());
    if (attentionRow)
        r.attention.insert(r.attention.end(), attentionRow, attentionRow + columns);
    if (copyGate >= 0)
        r.copyGate.push_back(copyGate);
    if (token >= vocabulary.size()) {
        r.outputTokens.push_back(source.unknownWords.at(std::size_t(token - vocabulary.size())));
        r.outputCopied.push_back(true);
        return;
    }
    std::string word = vocabulary.word(token);
    bool copied = false;
    if (token == Vocabulary::kUnk && replaceUnknown && attentionRow && copyGate < 0) {
        const int64_t focus = std::max_element(attentionRow, attentionRow + columns) - attentionRow;
        if (focus < columns - 1) {
            word = r.sourceTokens[std::size_t(focus)];
            copied = true;
        }
    }
    r.outputTokens.push_back(std::move(word));
    r.outputCopied.push_back(copied);
}

// The longest output decoding allows for a source of `words` words.
int maxOutputLength(std::size_t words)
{
    return int(2 * words + 5);
}

// The decoder memory of one sentence repeated for `rows` hypotheses (views, no copies).
DecoderMemory repeatRows(const DecoderMemory &memory, int64_t rows)
{
    const auto repeat = [rows](const torch::Tensor &t) {
        if (!t.defined())
            return t;
        std::vector<int64_t> sizes = t.sizes().vec();
        sizes[0] = rows;
        return t.expand(sizes);
    };
    return {repeat(memory.values), repeat(memory.keys), repeat(memory.mask), repeat(memory.maskBias)};
}

// Beam search's steps through the op-by-op decoder, for the attention variants InferenceNet does
// not cover: the live hypotheses run through the decoder as one batch (in eval mode, so dropout
// is a no-op).
BeamStepFunction opByOpBeamSteps(Seq2SeqNet &net, const ExtendedSource &ids)
{
    struct Steps {
        Decoder decoder{nullptr};
        DecoderMemory memory, rowsMemory;
        FusedDecoderWeights w;
        DecoderState state;
        torch::Tensor sourceExtended;  // (1, S)
    };
    auto steps = std::make_shared<Steps>();
    steps->decoder = net->decoder;
    const Batch batch = makeSourceBatch({ids.ids}, {ids.extended});
    steps->sourceExtended = batch.sourceExtended;
    steps->memory = net->encode(batch.source, batch.sourceLengths, &steps->state);
    steps->rowsMemory = steps->memory;
    steps->w = steps->decoder->fusedWeights();
    return [steps](const std::vector<int> &parents, const std::vector<int> &lastTokens) {
        Decoder &decoder = steps->decoder;
        DecoderState &state = steps->state;
        const auto rows = torch::tensor(std::vector<int64_t>(parents.begin(), parents.end()), torch::kLong);
        for (auto &layer : state.layers)
            layer = layer.index_select(0, rows);
        for (auto &cell : state.cells)
            cell = cell.index_select(0, rows);
        if (state.attentional.defined())
            state.attentional = state.attentional.index_select(0, rows);
        if (state.previousWeights.defined())
            state.previousWeights = state.previousWeights.index_select(0, rows);
        if (steps->rowsMemory.values.size(0) != rows.size(0))
            steps->rowsMemory = repeatRows(steps->memory, rows.size(0));
        const int64_t vocabularySize = decoder->embedding->weight.size(0);
        const auto last = torch::tensor(std::vector<int64_t>(lastTokens.begin(), lastTokens.end()), torch::kLong);
        const auto embedded = decoder->embedding(vocabularyIds(last, vocabularySize));
        const DecoderStepOutput s = decoder->step(steps->w, decoder->embeddingGates(steps->w, embedded), state,
                                                  steps->rowsMemory);
        const torch::Tensor logits = decoder->logits(steps->w, s.output, s.context, embedded);
        BeamScores scores;
        torch::Tensor logProbs;
        if (decoder->hasPointer()) {
            const torch::Tensor gate = decoder->copyProbability(s.output, s.context, embedded).contiguous();
            const torch::Tensor source = steps->sourceExtended.expand({rows.size(0), -1});
            logProbs = pointerDistribution(logits, s.weights, gate, source).log().contiguous();
            scores.copyGate.assign(gate.data_ptr<float>(), gate.data_ptr<float>() + gate.numel());
        } else {
            logProbs = torch::log_softmax(logits, 1).contiguous();
        }
        scores.logProbs.assign(logProbs.data_ptr<float>(), logProbs.data_ptr<float>() + logProbs.numel());
        if (s.weights.defined()) {
            const torch::Tensor weights = s.weights.contiguous();
            scores.attention.assign(weights.data_ptr<float>(), weights.data_ptr<float>() + weights.numel());
        }
        return scores;
    };
}

}

Seq2SeqModel::Seq2SeqModel(const ModelConfig &config, const Vocabulary &vocabulary, std::uint64_t seed)
    : d(std::make_unique<Private>())
{
    const std::string problem = validate(config);
    if (!problem.empty())
        throw std::invalid_argument("invalid model settings: " + problem);
    d->config = resolvedFor(config, /*corpus=*/false);  // callers that know their data resolve Auto first
    d->vocabulary = vocabulary;
    torch::manual_seed(seed);
    d->net = Seq2SeqNet(vocabulary.size(), d->config);
}

Seq2SeqModel Seq2SeqModel::forDataset(const ModelConfig &config, const Dataset &data, const DatasetConfig &dataset,
                                      std::uint64_t seed)
{
    Seq2SeqModel model(resolvedFor(config, data.fromCorpus), vocabularyFor(data, dataset), seed);
    model.datasetConfig = dataset;
    return model;
}

Seq2SeqModel::~Seq2SeqModel() = default;
Seq2SeqModel::Seq2SeqModel(Seq2SeqModel &&) noexcept = default;
Seq2SeqModel &Seq2SeqModel::operator=(Seq2SeqModel &&) noexcept = default;

Seq2SeqModel Seq2SeqModel::load(const std::string &path)
{
    std::string bytes;
    try {
        bytes = readWholeFile(path, std::size_t(2) << 30);
    } catch (const std::runtime_error &e) {
        throw CheckpointError(e.what());
    }
    try {
        return checkpointformat::decode(bytes);
    } catch (const CheckpointError &e) {
        throw CheckpointError("cannot load '" + path + "': " + e.what());
    }
}

void Seq2SeqModel::save(const std::string &path) const
{
    try {
        writeFileAtomically(path, checkpointformat::encode(*this));
    } catch (const std::runtime_error &e) {
        throw CheckpointError(e.what());
    }
}

Seq2SeqModel Seq2SeqModel::clone() const
{
    Seq2SeqModel copy(d->config, d->vocabulary, 0);
    torch::NoGradGuard noGrad;
    auto source = d->net->named_parameters(true);
    for (auto &item : copy.d->net->named_parameters(true))
        item.value().copy_(source[item.key()]);
    copy.d->net->train(d->net->is_training());
    copy.datasetConfig = datasetConfig;
    copy.history = history;
    return copy;
}

DecodedSentence Seq2SeqModel::reverse(const std::string &sentence, const DecodeOptions &options) const
{
    return decode(tokenize(sentence, lowercase()), options);
}

void Seq2SeqModel::prepareDecoding() const
{
    torch::InferenceMode inference;
    d->net->prepareInference();
}

DecodedSentence Seq2SeqModel::decode(const std::vector<std::string> &tokens, const DecodeOptions &options) const
{
    return decodeBatch({tokens}, options).front();
}

std::vector<DecodedSentence> Seq2SeqModel::decodeBatch(const std::vector<std::vector<std::string>> &sentences,
                                                       const DecodeOptions &options) const
{
    if (sentences.empty())
        return {};
    std::vector<DecodedSentence> results;
    std::vector<ExtendedSource> sources(sentences.size());
    std::vector<std::vector<int>> ids, extended;
    std::size_t longest = 0;
    for (std::size_t i = 0; i < sentences.size(); ++i) {
        results.push_back(sourceSide(sentences[i], d->vocabulary, &sources[i]));
        ids.push_back(sources[i].ids);
        extended.push_back(sources[i].extended);
        longest = std::max(longest, ids[i].size());
    }

    torch::InferenceMode inference;
    EvalModeScope evalMode(d->net);
    const Batch batch = makeSourceBatch(ids, extended);
    const GreedyOutput out = d->net->greedy(batch.source, batch.sourceLengths, maxOutputLength(longest),
                                            /*stopAtEos=*/true, batch.sourceExtended);
    const auto tokens = out.tokens.accessor<int64_t, 2>();
    const bool attends = out.weights.defined();
    const torch::Tensor weights = attends ? out.weights.contiguous() : torch::Tensor();
    const float *w = attends ? weights.data_ptr<float>() : nullptr;
    const int64_t steps = out.tokens.size(1), width = attends ? weights.size(2) : 0;
    const bool pointer = out.copyGate.defined();
    const torch::Tensor gates = pointer ? out.copyGate.contiguous() : torch::Tensor();
    const float *gate = pointer ? gates.data_ptr<float>() : nullptr;

    for (std::size_t i = 0; i < results.size(); ++i) {
        const int64_t maxSteps = std::min<int64_t>(steps, maxOutputLength(ids[i].size()));
        for (int64_t t = 0; t < maxSteps; ++t) {
            const float *row = attends ? w + (int64_t(i) * steps + t) * width : nullptr;
            const float copyGate = pointer ? gate[int64_t(i) * steps + t] : -1.0f;
            const int token = int(tokens[int64_t(i)][t]);
            appendOutput(results[i], token, row, copyGate, sources[i], d->vocabulary, options.replaceUnknown);
            if (token == Vocabulary::kEos)
                break;
        }
    }
    return results;
}

BeamDecoded Seq2SeqModel::beamReverse(const std::string &sentence, const BeamOptions &beam,
                                      const DecodeOptions &options) const
{
    return beamDecode(tokenize(sentence, lowercase()), beam, options);
}

BeamDecoded Seq2SeqModel::beamDecode(const std::vector<std::string> &tokens, const BeamOptions &beam,
                                     const DecodeOptions &options) const
{
    ExtendedSource ids;
    const DecodedSentence source = sourceSide(tokens, d->vocabulary, &ids);

    // Inference mode, as decodeBatch(): no gradients and no autograd bookkeeping at all.
    torch::InferenceMode inference;
    EvalModeScope evalMode(d->net);
    const SingleThreadScope singleThread;  // a beam's few rows, as greedy() for a few sentences
    const int maxLength = maxOutputLength(ids.ids.size());
    BeamResult found;
    if (InferenceNet *fast = d->net->inference()) {
        std::vector<int> source = ids.ids, extended = ids.extended;
        source.push_back(Vocabulary::kEos);  // as makeSourceBatch() ends every sentence
        extended.push_back(Vocabulary::kEos);
        fast->begin(source, extended);
        found = beamSearch([fast](const std::vector<int> &parents,
                                  const std::vector<int> &lastTokens) { return fast->step(parents, lastTokens); },
                           beam, maxLength);
    } else {
        found = beamSearch(opByOpBeamSteps(d->net, ids), beam, maxLength);
    }
    BeamDecoded decoded;
    decoded.steps = std::move(found.steps);
    decoded.copiedWords = ids.unknownWords;
    const std::size_t columns = source.sourceTokens.size();
    for (const BeamHypothesis &h : found.nbest) {
        ScoredSentence scored{source, h.tokens, h.logProb, h.score};
        for (std::size_t t = 0; t < h.tokens.size(); ++t) {
            const float *row = h.attention.empty() ? nullptr : h.attention.data() + t * columns;
            const float gate = h.copyGate.empty() ? -1.0f : h.copyGate[t];
            appendOutput(scored.sentence, h.tokens[t], row, gate, ids, d->vocabulary, options.replaceUnknown);
        }
        decoded.nbest.push_back(std::move(scored));
    }
    return decoded;
}

const std::string &BeamDecoded::word(int token, const Vocabulary &vocabulary) const
{
    return token < vocabulary.size() ? vocabulary.word(token) : copiedWords.at(std::size_t(token - vocabulary.size()));
}

const ModelConfig &Seq2SeqModel::config() const { return d->config; }
const Vocabulary &Seq2SeqModel::vocabulary() const { return d->vocabulary; }
bool Seq2SeqModel::hasAttention() const { return d->config.attention != AttentionKind::None; }
bool Seq2SeqModel::lowercase() const { return datasetConfig.lowercase; }
Seq2SeqNet &Seq2SeqModel::net() const { return d->net; }

EmbeddingTable Seq2SeqModel::encoderEmbeddings() const
{
    return tableOf(d->net->encoder->embedding->weight, d->vocabulary);
}

EmbeddingTable Seq2SeqModel::decoderEmbeddings() const
{
    return tableOf(d->net->decoder->embedding->weight, d->vocabulary);
}

std::int64_t Seq2SeqModel::parameterCount() const
{
    std::int64_t n = 0;
    for (const auto &p : d->net->parameters())
        n += p.numel();
    return n;
}
