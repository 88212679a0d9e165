#include "engine/attention/faithfulness.h"

#include "engine/attention/outputlogprob.h"
#include "engine/attention/seq2seqmodel.h"

#include <algorithm>
#include <cmath>

namespace {

// Output values one scoring batch may hold (sources x steps x vocabulary): a long sentence of a
// corpus model has thousands of erasures, more than fit in memory at once.
constexpr double kMaxScoredValues = double(1 << 25);

// outputStepLogProbs in as few batches as memory allows.
std::vector<std::vector<double>> scoreSources(const Seq2SeqModel &model,
                                              const std::vector<std::vector<std::string>> &sources,
                                              const DecodedSentence &output)
{
    const double perSource = double(output.outputTokens.size()) * double(model.vocabulary().size());
    const std::size_t chunk = std::size_t(std::max(1.0, std::floor(kMaxScoredValues / perSource)));
    std::vector<std::vector<double>> scores;
    for (std::size_t begin = 0; begin < sources.size(); begin += chunk) {
        const std::size_t end = std::min(sources.size(), begin + chunk);
        const std::vector<std::vector<std::string>> part(sources.begin() + std::ptrdiff_t(begin),
                                                         sources.begin() + std::ptrdiff_t(end));
        for (std::vector<double> &row : outputStepLogProbs(model, part, output))
            scores.push_back(std::move(row));
    }
    return scores;
}

// The methods attribute() computes for `options` on `model`.
std::vector<AttributionMethod> computedMethods(const Seq2SeqModel &model, const AttributionOptions &options)
{
    std::vector<AttributionMethod> methods;
    for (AttributionMethod method : options.methods)
        if (method != AttributionMethod::Attention || model.hasAttention())
            methods.push_back(method);
    return methods;
}

}

FaithfulnessReport measureFaithfulness(const Seq2SeqModel &model, const std::vector<SentencePair> &data, Task task,
                                       const AttributionOptions &options, const std::function<bool()> &keepGoing)
{
    FaithfulnessTally tally(computedMethods(model, options), task);
    for (const SentencePair &pair : data) {
        if (keepGoing && !keepGoing())
            break;
        if (pair.source.size() < 2)
            continue;
        const SentenceAttribution explained = attribute(model, pair.source, options);
        tally.add(explained, [&](const std::vector<std::vector<std::string>> &sources) {
            return scoreSources(model, sources, explained.sentence);
        });
    }
    return tally.report();
}
