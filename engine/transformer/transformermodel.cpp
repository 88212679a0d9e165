#include "engine/transformer/transformermodel.h"

#include "engine/core/batch.h"
#include "engine/core/dataset.h"
#include "engine/core/evalmodescope.h"
#include "engine/core/parameterversions.h"
#include "engine/transformer/greedydecoding.h"
#include "engine/transformer/transformernet.h"

#include <algorithm>
#include <map>
#include <stdexcept>

namespace {

// Sentences decoded together when scoring.
constexpr int kScoreBatch = 256;

// The ids up to and including the first <EOS> (all of them when there is none).
std::vector<int64_t> untilEos(const torch::Tensor &row)
{
    std::vector<int64_t> ids;
    for (int64_t i = 0; i < row.size(0); ++i) {
        ids.push_back(row[i].item<int64_t>());
        if (ids.back() == Vocabulary::kEos)
            break;
    }
    return ids;
}

}  // namespace

struct TransformerModel::Impl {
    explicit Impl(TransformerNet network) : net(std::move(network)) {}

    TransformerNet net;
    // The hand-written decoder, rebuilt when the weights change.
    WeightCache<std::shared_ptr<const TransformerInference>> inference;
};

namespace {

TransformerNet seededNet(const TransformerConfig &config, int vocabularySize, std::uint64_t seed)
{
    torch::manual_seed(seed);
    return TransformerNet(config, vocabularySize);
}

}  // namespace

TransformerModel::TransformerModel(const TransformerConfig &config, const Vocabulary &vocabulary, Task task,
                                   std::uint64_t seed)
    : TransformerModel(std::make_unique<Impl>(seededNet(config, vocabulary.size(), seed)), vocabulary, task)
{
}

TransformerModel::TransformerModel(std::unique_ptr<Impl> impl, const Vocabulary &vocabulary, Task task)
    : m_impl(std::move(impl)), m_vocabulary(vocabulary), m_task(task)
{
    m_impl->net->eval();
}

TransformerModel::TransformerModel(TransformerModel &&) noexcept = default;
TransformerModel &TransformerModel::operator=(TransformerModel &&) noexcept = default;
TransformerModel::~TransformerModel() = default;

namespace {

std::string tensorShapeText(const std::vector<int64_t> &shape)
{
    std::string text = "[";
    for (std::size_t i = 0; i < shape.size(); ++i)
        text += (i ? "x" : "") + std::to_string(shape[i]);
    return text + "]";
}

}  // namespace

TransformerModel TransformerModel::withParameters(const TransformerConfig &config, const Vocabulary &vocabulary,
                                                  Task task, const std::vector<NamedTensor> &parameters)
{
    std::map<std::string, const NamedTensor *> byName;
    for (const NamedTensor &tensor : parameters)
        if (!byName.emplace(tensor.name, &tensor).second)
            throw std::invalid_argument("tensor '" + tensor.name + "' is given twice");
    auto impl = std::make_unique<Impl>(TransformerNet(config, vocabulary.size()));
    torch::NoGradGuard noGrad;
    const auto named = impl->net->named_parameters(/*recurse=*/true);
    if (named.size() != byName.size())
        throw std::invalid_argument(std::to_string(byName.size()) + " tensors are given; the model has " +
                                    std::to_string(named.size()));
    for (const auto &item : named) {
        const auto found = byName.find(item.key());
        if (found == byName.end())
            throw std::invalid_argument("there is no tensor '" + item.key() + "'");
        const NamedTensor &tensor = *found->second;
        const std::vector<int64_t> expected = item.value().sizes().vec();
        if (tensor.shape != expected || tensor.values.size() != std::size_t(item.value().numel()))
            throw std::invalid_argument("tensor '" + item.key() + "' is " + tensorShapeText(tensor.shape) +
                                        " but the model's is " + tensorShapeText(expected));
        item.value().copy_(torch::from_blob(const_cast<float *>(tensor.values.data()), expected, torch::kFloat));
    }
    return TransformerModel(std::move(impl), vocabulary, task);
}

std::vector<NamedTensor> TransformerModel::parameters() const
{
    std::vector<NamedTensor> tensors;
    for (const auto &item : m_impl->net->named_parameters(/*recurse=*/true)) {
        const torch::Tensor values = item.value().detach().to(torch::kFloat).contiguous();
        const float *first = values.data_ptr<float>();
        tensors.push_back({item.key(), values.sizes().vec(), std::vector<float>(first, first + values.numel())});
    }
    return tensors;
}

const TransformerConfig &TransformerModel::config() const
{
    return m_impl->net->config();
}

TransformerNetImpl &TransformerModel::net() const
{
    return *m_impl->net;
}

int64_t TransformerModel::parameterCount() const
{
    int64_t count = 0;
    for (const torch::Tensor &parameter : m_impl->net->parameters())
        count += parameter.numel();
    return count;
}

namespace {

// The sentence's ids, a word the vocabulary lacks as <UNK>, then <EOS>.
std::vector<int> sourceIdsOf(const Vocabulary &vocabulary, const std::vector<std::string> &words)
{
    std::vector<int> ids;
    for (const std::string &word : words)
        ids.push_back(vocabulary.id(word));
    ids.push_back(Vocabulary::kEos);
    return ids;
}

// The sentence's length + 2: room for every word, <EOS> and one token more.
int decodingSteps(const std::vector<int> &sourceIds)
{
    return int(sourceIds.size()) + 1;
}

TransformerOutput outputOf(const Vocabulary &vocabulary, const std::vector<int> &sourceIds, DecodedIds decoded)
{
    TransformerOutput output;
    for (int id : sourceIds)
        output.sourceTokens.push_back(vocabulary.word(id));
    for (int id : decoded.output)
        output.outputTokens.push_back(vocabulary.word(id));
    output.encoderSelf = std::move(decoded.encoderSelf);
    output.decoderSelf = std::move(decoded.decoderSelf);
    output.cross = std::move(decoded.cross);
    return output;
}

}  // namespace

TransformerOutput decodeWords(const TransformerInference &inference, const Vocabulary &vocabulary,
                              const std::vector<std::string> &words)
{
    const std::vector<int> ids = sourceIdsOf(vocabulary, words);
    return outputOf(vocabulary, ids, inference.decode(ids, decodingSteps(ids), true));
}

TransformerOutput decodeWordsAlong(const TransformerInference &inference, const Vocabulary &vocabulary,
                                   const std::vector<std::string> &words, const std::vector<std::string> &outputTokens)
{
    const std::vector<int> ids = sourceIdsOf(vocabulary, words);
    std::vector<int> fed;
    for (const std::string &token : outputTokens)
        fed.push_back(vocabulary.id(token));
    AttentionInputs inputs;
    TransformerOutput output = outputOf(vocabulary, ids, inference.teacherForced(ids, fed, inputs));
    output.outputTokens = outputTokens;  // the rows are the words fed, whatever the model would have said
    return output;
}

TransformerBeamOutput beamDecodeWords(const TransformerInference &inference, const Vocabulary &vocabulary,
                                      const std::vector<std::string> &words, const BeamOptions &options)
{
    const std::vector<int> ids = sourceIdsOf(vocabulary, words);
    TransformerBeam beam = transformerBeamSearch(inference, ids, options, decodingSteps(ids), true);
    TransformerBeamOutput result;
    result.steps = std::move(beam.steps);
    for (TransformerHypothesis &hypothesis : beam.nbest) {
        std::vector<int> tokens = hypothesis.decoded.output;
        result.nbest.push_back({outputOf(vocabulary, ids, std::move(hypothesis.decoded)), std::move(tokens),
                                hypothesis.logProb, hypothesis.score});
    }
    return result;
}

std::shared_ptr<const TransformerInference> TransformerModel::inference() const
{
    TransformerNet &net = m_impl->net;
    return m_impl->inference.get(*net, [&] { return std::make_shared<const TransformerInference>(*net); });
}

TransformerOutput TransformerModel::decode(const std::vector<std::string> &words) const
{
    return decodeWords(*inference(), m_vocabulary, words);
}

TransformerBeamOutput TransformerModel::beamDecode(const std::vector<std::string> &words,
                                                   const BeamOptions &options) const
{
    return beamDecodeWords(*inference(), m_vocabulary, words, options);
}

TransformerScore TransformerModel::score(const std::vector<SentencePair> &pairs) const
{
    const EvalModeScope evalMode(m_impl->net);
    TransformerScore score;
    for (size_t first = 0; first < pairs.size(); first += kScoreBatch) {
        std::vector<const SentencePair *> group;
        for (size_t i = first; i < std::min(pairs.size(), first + kScoreBatch); ++i)
            group.push_back(&pairs[i]);
        const Batch batch = makeBatch(group, m_vocabulary);
        const GreedyDecoding decoded =
            greedyDecode(*m_impl->net, batch.source, batch.sourceMask, int(batch.source.size(1)) + 1);
        for (size_t row = 0; row < group.size(); ++row) {
            const std::vector<int64_t> got = untilEos(decoded.tokens[int64_t(row)]);
            std::vector<int64_t> want;
            for (const std::string &word : group[row]->target)
                want.push_back(m_vocabulary.id(word));
            want.push_back(Vocabulary::kEos);
            int right = 0;
            for (size_t i = 0; i < std::min(got.size(), want.size()); ++i)
                right += got[i] == want[i];
            const bool exact = got == want;
            score.sentences += 1;
            score.exact += exact;
            score.tokens += int64_t(want.size());
            score.tokensRight += right;
            LengthAccuracy &ofLength = score.byLength[int(group[row]->source.size())];
            ofLength.correct += exact;
            ofLength.total += 1;
        }
    }
    return score;
}
