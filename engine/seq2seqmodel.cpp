#include "seq2seqmodel.h"

#include "atomicfile.h"
#include "batch.h"
#include "checkpointformat.h"
#include "seq2seqnet.h"
#include "tokenizer.h"

#include <algorithm>

struct Seq2SeqModel::Private {
    ModelConfig config;
    Vocabulary vocabulary;
    Seq2SeqNet net{nullptr};
};

namespace {

// Restores the module's train/eval mode when decoding is done.
class EvalModeScope
{
public:
    explicit EvalModeScope(Seq2SeqNet &net) : m_net(net), m_wasTraining(net->is_training()) { net->eval(); }
    ~EvalModeScope() { m_net->train(m_wasTraining); }

private:
    Seq2SeqNet &m_net;
    bool m_wasTraining;
};

EmbeddingTable tableOf(const torch::Tensor &weight, const Vocabulary &vocabulary)
{
    const torch::Tensor w = weight.detach().to(torch::kFloat).contiguous();
    EmbeddingTable table;
    table.words = vocabulary.words();
    table.dimensions = int(w.size(1));
    table.values.assign(w.data_ptr<float>(), w.data_ptr<float>() + w.numel());
    return table;
}

}

Seq2SeqModel::Seq2SeqModel(const ModelConfig &config, const Vocabulary &vocabulary, std::uint64_t seed)
    : d(std::make_unique<Private>())
{
    const std::string problem = validate(config);
    if (!problem.empty())
        throw std::invalid_argument("invalid model settings: " + problem);
    d->config = config;
    d->vocabulary = vocabulary;
    torch::manual_seed(seed);
    d->net = Seq2SeqNet(vocabulary.size(), config);
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

DecodedSentence Seq2SeqModel::decode(const std::vector<std::string> &tokens, const DecodeOptions &options) const
{
    return decodeBatch({tokens}, options).front();
}

std::vector<DecodedSentence> Seq2SeqModel::decodeBatch(const std::vector<std::vector<std::string>> &sentences,
                                                       const DecodeOptions &options) const
{
    if (sentences.empty())
        return {};
    std::vector<DecodedSentence> results(sentences.size());
    std::vector<std::vector<int>> ids(sentences.size());
    std::size_t longest = 0;
    for (std::size_t i = 0; i < sentences.size(); ++i) {
        DecodedSentence &r = results[i];
        const auto &words = sentences[i];
        r.truncatedInput = words.size() > std::size_t(kMaxInputTokens);
        r.sourceTokens.assign(words.begin(), words.begin() + std::ptrdiff_t(std::min(words.size(), std::size_t(kMaxInputTokens))));
        for (const auto &w : r.sourceTokens) {
            ids[i].push_back(d->vocabulary.id(w));
            r.sourceKnown.push_back(d->vocabulary.contains(w));
        }
        r.sourceTokens.push_back("<EOS>");
        r.sourceKnown.push_back(true);
        longest = std::max(longest, ids[i].size());
    }

    torch::InferenceMode inference;
    EvalModeScope evalMode(d->net);
    const Batch batch = makeSourceBatch(ids);
    const GreedyOutput out = d->net->greedy(batch.source, batch.sourceLengths, int(2 * longest + 5));
    const auto tokens = out.tokens.accessor<int64_t, 2>();
    const bool attends = out.weights.defined();
    const torch::Tensor weights = attends ? out.weights.contiguous() : torch::Tensor();
    const float *w = attends ? weights.data_ptr<float>() : nullptr;
    const int64_t steps = out.tokens.size(1), width = attends ? weights.size(2) : 0;

    for (std::size_t i = 0; i < results.size(); ++i) {
        DecodedSentence &r = results[i];
        const int64_t columns = int64_t(r.sourceTokens.size());
        const int64_t maxSteps = std::min<int64_t>(steps, 2 * int64_t(ids[i].size()) + 5);
        for (int64_t t = 0; t < maxSteps; ++t) {
            const float *row = attends ? w + (int64_t(i) * steps + t) * width : nullptr;
            if (attends)
                r.attention.insert(r.attention.end(), row, row + columns);
            const int token = int(tokens[int64_t(i)][t]);
            std::string word = d->vocabulary.word(token);
            bool copied = false;
            if (token == Vocabulary::kUnk && options.replaceUnknown && attends) {
                const int64_t focus = std::max_element(row, row + columns) - row;
                if (focus < columns - 1) {
                    word = r.sourceTokens[std::size_t(focus)];
                    copied = true;
                }
            }
            r.outputTokens.push_back(std::move(word));
            r.outputCopied.push_back(copied);
            if (token == Vocabulary::kEos)
                break;
        }
    }
    return results;
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
