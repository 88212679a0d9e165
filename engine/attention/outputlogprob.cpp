#include "engine/attention/outputlogprob.h"

#include "engine/attention/batch.h"
#include "engine/attention/seq2seqmodel.h"
#include "engine/attention/seq2seqnet.h"
#include "engine/core/evalmodescope.h"

#include <algorithm>
#include <stdexcept>

std::vector<int> emittedTokenIds(const Seq2SeqModel &model, const DecodedSentence &sentence)
{
    std::vector<int> ids;
    for (std::size_t t = 0; t < sentence.outputTokens.size(); ++t)
        ids.push_back(sentence.outputCopied[t] ? Vocabulary::kUnk : model.vocabulary().id(sentence.outputTokens[t]));
    return ids;
}

std::vector<double> outputLogProbs(const Seq2SeqModel &model, const std::vector<std::vector<std::string>> &sources,
                                   const std::vector<int> &output)
{
    if (sources.empty())
        return {};
    if (output.empty())
        throw std::invalid_argument("an output to score needs at least one token");
    std::vector<std::vector<int>> ids;
    for (const auto &words : sources) {
        const std::size_t kept = std::min(words.size(), std::size_t(Seq2SeqModel::kMaxInputTokens));
        std::vector<int> sentence;
        for (std::size_t i = 0; i < kept; ++i)
            sentence.push_back(model.vocabulary().id(words[i]));
        ids.push_back(std::move(sentence));
    }
    torch::InferenceMode inference;
    EvalModeScope evalMode(model.net());
    const Batch batch = makeSourceBatch(ids);
    const int64_t rows = int64_t(sources.size());
    std::vector<int64_t> target{Vocabulary::kSos};
    target.insert(target.end(), output.begin(), output.end());
    // Every source is scored against the same output, so the target needs no padding.
    const torch::Tensor targets = torch::tensor(target, torch::kLong).unsqueeze(0).expand({rows, int64_t(target.size())});
    const torch::Tensor logits = model.net()->forward(batch.source, batch.sourceLengths, targets, [] { return true; });
    const torch::Tensor next = targets.narrow(1, 1, int64_t(output.size())).unsqueeze(2);
    const torch::Tensor sums = torch::log_softmax(logits, 2).gather(2, next).sum({1, 2}).to(torch::kDouble).contiguous();
    return std::vector<double>(sums.data_ptr<double>(), sums.data_ptr<double>() + rows);
}
