#include "engine/transformer/transformermodel.h"

#include "engine/core/batch.h"
#include "engine/core/dataset.h"
#include "engine/core/evalmodescope.h"
#include "engine/transformer/greedydecoding.h"
#include "engine/transformer/transformernet.h"

#include <algorithm>

namespace {

// Sentences decoded together when scoring.
constexpr int kScoreBatch = 256;

LayeredAttention plainWeights(const std::vector<torch::Tensor> &layers)
{
    LayeredAttention plain;
    for (const torch::Tensor &layer : layers) {
        const torch::Tensor first = layer[0].contiguous();  // (h, rows, columns) of the one sentence
        plain.rows = int(first.size(1));
        plain.columns = int(first.size(2));
        std::vector<std::vector<float>> heads;
        for (int64_t head = 0; head < first.size(0); ++head) {
            const torch::Tensor matrix = first[head].contiguous();
            heads.emplace_back(matrix.data_ptr<float>(), matrix.data_ptr<float>() + matrix.numel());
        }
        plain.weights.push_back(std::move(heads));
    }
    return plain;
}

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
    TransformerNet net;
};

TransformerModel::TransformerModel(const TransformerConfig &config, const Vocabulary &vocabulary, Task task)
    : m_impl(std::make_unique<Impl>(Impl{TransformerNet(config, vocabulary.size())})), m_vocabulary(vocabulary),
      m_task(task)
{
    m_impl->net->eval();
}

TransformerModel::~TransformerModel() = default;

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

TransformerOutput TransformerModel::decode(const std::vector<std::string> &words) const
{
    const EvalModeScope evalMode(m_impl->net);
    TransformerOutput output;
    std::vector<int> ids;
    for (const std::string &word : words)
        ids.push_back(m_vocabulary.id(word));
    const Batch batch = makeSourceBatch({ids});
    for (int64_t i = 0; i < batch.source.size(1); ++i)
        output.sourceTokens.push_back(m_vocabulary.word(int(batch.source[0][i].item<int64_t>())));
    const GreedyDecoding decoded =
        greedyDecode(*m_impl->net, batch.source, batch.sourceMask, int(batch.source.size(1)) + 1, true);
    const std::vector<int64_t> outputIds = untilEos(decoded.tokens[0]);
    for (int64_t id : outputIds)
        output.outputTokens.push_back(m_vocabulary.word(int(id)));
    const auto steps = int64_t(outputIds.size());
    std::vector<torch::Tensor> decoderSelf, cross;
    for (const torch::Tensor &layer : decoded.attention.decoderSelf)
        decoderSelf.push_back(layer.narrow(2, 0, steps).narrow(3, 0, steps));
    for (const torch::Tensor &layer : decoded.attention.cross)
        cross.push_back(layer.narrow(2, 0, steps));
    output.encoderSelf = plainWeights(decoded.attention.encoderSelf);
    output.decoderSelf = plainWeights(decoderSelf);
    output.cross = plainWeights(cross);
    return output;
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
            auto &[exactOfLength, ofLength] = score.byLength[int(group[row]->source.size())];
            exactOfLength += exact;
            ofLength += 1;
        }
    }
    return score;
}
