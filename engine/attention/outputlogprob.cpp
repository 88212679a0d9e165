#include "engine/attention/outputlogprob.h"

#include "engine/attention/batch.h"
#include "engine/attention/evalmodescope.h"
#include "engine/attention/pointermixture.h"
#include "engine/attention/seq2seqmodel.h"
#include "engine/attention/seq2seqnet.h"

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
                                   const DecodedSentence &output)
{
    if (sources.empty())
        return {};
    const std::vector<int> emitted = emittedTokenIds(model, output);
    if (emitted.empty())
        throw std::invalid_argument("an output to score needs at least one token");
    const Vocabulary &vocabulary = model.vocabulary();
    const bool pointer = model.config().usesPointer();
    std::vector<std::vector<int>> ids, extended, targets;
    for (const auto &words : sources) {
        const std::size_t kept = std::min(words.size(), std::size_t(Seq2SeqModel::kMaxInputTokens));
        const ExtendedSource source =
            extendedSource(std::vector<std::string>(words.begin(), words.begin() + std::ptrdiff_t(kept)), vocabulary);
        std::vector<int> target{Vocabulary::kSos};
        for (std::size_t t = 0; t < emitted.size(); ++t)
            target.push_back(pointer && emitted[t] == Vocabulary::kUnk ? extendedId(output.outputTokens[t], source, vocabulary)
                                                              : emitted[t]);
        ids.push_back(source.ids);
        extended.push_back(source.extended);
        targets.push_back(std::move(target));
    }
    torch::InferenceMode inference;
    EvalModeScope evalMode(model.net());
    const Batch batch = makeSourceBatch(ids, extended);
    const int64_t rows = int64_t(sources.size()), columns = int64_t(emitted.size()) + 1;
    // Every source is scored against an output of the same length, so the target needs no padding.
    torch::Tensor target = torch::empty({rows, columns}, torch::kLong);
    for (int64_t r = 0; r < rows; ++r)
        std::copy(targets[std::size_t(r)].begin(), targets[std::size_t(r)].end(), target[r].data_ptr<int64_t>());
    const TeacherForcedOutput out =
        model.net()->forward(batch.source, batch.sourceLengths, target, [] { return true; }, batch.sourceExtended);
    const torch::Tensor next = target.narrow(1, 1, columns - 1);
    const torch::Tensor logProbs =
        out.copyGate.defined()
            ? pointerTargetLogProb(out.logits, out.weights, out.copyGate, batch.sourceExtended, next)
            : torch::log_softmax(out.logits, 2).gather(2, next.unsqueeze(2)).squeeze(2);
    const torch::Tensor sums = logProbs.sum(1).to(torch::kDouble).contiguous();
    return std::vector<double>(sums.data_ptr<double>(), sums.data_ptr<double>() + rows);
}
