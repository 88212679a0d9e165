#include "engine/attention/outputlogprob.h"

#include "engine/attention/pointermixture.h"
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

ScoringBatch scoringBatch(const Seq2SeqModel &model, const std::vector<std::vector<std::string>> &sources,
                          const DecodedSentence &output)
{
    const std::vector<int> emitted = emittedTokenIds(model, output);
    if (emitted.empty())
        throw std::invalid_argument("an output to score needs at least one token");
    const Vocabulary &vocabulary = model.vocabulary();
    const bool pointer = model.config().usesPointer();
    std::vector<std::vector<int>> ids, extended;
    const int64_t rows = int64_t(sources.size()), columns = int64_t(emitted.size()) + 1;
    // Every source is scored against an output of the same length, so the target needs no padding.
    torch::Tensor target = torch::empty({rows, columns}, torch::kLong);
    for (int64_t r = 0; r < rows; ++r) {
        const std::vector<std::string> &words = sources[std::size_t(r)];
        const std::size_t kept = std::min(words.size(), std::size_t(Seq2SeqModel::kMaxInputTokens));
        const ExtendedSource source =
            extendedSource(std::vector<std::string>(words.begin(), words.begin() + std::ptrdiff_t(kept)), vocabulary);
        int64_t *row = target[r].data_ptr<int64_t>();
        row[0] = Vocabulary::kSos;
        for (std::size_t t = 0; t < emitted.size(); ++t)
            row[t + 1] = pointer && emitted[t] == Vocabulary::kUnk ? extendedId(output.outputTokens[t], source, vocabulary)
                                                                   : emitted[t];
        ids.push_back(source.ids);
        extended.push_back(source.extended);
    }
    return {makeSourceBatch(ids, extended), target};
}

torch::Tensor targetLogProbs(const TeacherForcedOutput &out, const torch::Tensor &sourceExtended,
                             const torch::Tensor &next)
{
    return out.copyGate.defined() ? pointerTargetLogProb(out.logits, out.weights, out.copyGate, sourceExtended, next)
                                  : torch::log_softmax(out.logits, 2).gather(2, next.unsqueeze(2)).squeeze(2);
}

namespace {

// (sources, T) as doubles.
torch::Tensor stepLogProbs(const Seq2SeqModel &model, const std::vector<std::vector<std::string>> &sources,
                           const DecodedSentence &output)
{
    const ScoringBatch scoring = scoringBatch(model, sources, output);
    torch::InferenceMode inference;
    EvalModeScope evalMode(model.net());
    const Batch &batch = scoring.batch;
    const TeacherForcedOutput out = model.net()->forward(batch.source, batch.sourceLengths, scoring.target,
                                                         [] { return true; }, batch.sourceExtended);
    const torch::Tensor next = scoring.target.narrow(1, 1, scoring.target.size(1) - 1);
    return targetLogProbs(out, batch.sourceExtended, next).to(torch::kDouble).contiguous();
}

}

std::vector<double> outputLogProbs(const Seq2SeqModel &model, const std::vector<std::vector<std::string>> &sources,
                                   const DecodedSentence &output)
{
    if (sources.empty())
        return {};
    const torch::Tensor sums = stepLogProbs(model, sources, output).sum(1).contiguous();
    return std::vector<double>(sums.data_ptr<double>(), sums.data_ptr<double>() + sums.size(0));
}

std::vector<std::vector<double>> outputStepLogProbs(const Seq2SeqModel &model,
                                                    const std::vector<std::vector<std::string>> &sources,
                                                    const DecodedSentence &output)
{
    if (sources.empty())
        return {};
    const torch::Tensor steps = stepLogProbs(model, sources, output);
    std::vector<std::vector<double>> rows;
    for (int64_t r = 0; r < steps.size(0); ++r)
        rows.emplace_back(steps[r].data_ptr<double>(), steps[r].data_ptr<double>() + steps.size(1));
    return rows;
}
