#include "engine/transformer/transformerfaithfulness.h"

#include "engine/core/evalmodescope.h"
#include "engine/core/vocabulary.h"
#include "engine/transformer/transformerattribution.h"
#include "engine/transformer/transformermodel.h"
#include "engine/transformer/transformernet.h"

#include <algorithm>
#include <cmath>

namespace {

// Output values one scoring batch may hold (sources x steps x vocabulary): a long sentence has
// thousands of erasures, more than fit in memory at once.
constexpr double kMaxErasureScoreValues = double(1 << 25);

// One padded batch of `sources`, each with <EOS>: its ids (B, S) and its mask, true on real tokens.
std::pair<torch::Tensor, torch::Tensor> paddedSources(const Vocabulary &vocabulary,
                                                      const std::vector<std::vector<std::string>> &sources)
{
    std::size_t longest = 0;
    for (const std::vector<std::string> &source : sources)
        longest = std::max(longest, source.size() + 1);
    std::vector<int64_t> ids(sources.size() * longest, Vocabulary::kPad);
    std::vector<int64_t> real(ids.size(), 0);
    for (std::size_t b = 0; b < sources.size(); ++b) {
        const std::vector<std::string> &source = sources[b];
        for (std::size_t i = 0; i <= source.size(); ++i) {
            ids[b * longest + i] = i < source.size() ? vocabulary.id(source[i]) : Vocabulary::kEos;
            real[b * longest + i] = 1;
        }
    }
    const std::vector<int64_t> shape{int64_t(sources.size()), int64_t(longest)};
    const torch::Tensor mask = torch::tensor(real, torch::kLong).view(shape) != 0;
    return {torch::tensor(ids, torch::kLong).view(shape), mask};
}

std::vector<std::vector<double>> scoreErasedBatch(TransformerNetImpl &net, const Vocabulary &vocabulary,
                                                  const std::vector<std::vector<std::string>> &sources,
                                                  const std::vector<int64_t> &output)
{
    const auto [ids, mask] = paddedSources(vocabulary, sources);
    const int64_t rows = ids.size(0), steps = int64_t(output.size());
    std::vector<int64_t> in{Vocabulary::kSos};
    in.insert(in.end(), output.begin(), output.end() - 1);
    const torch::Tensor targetIn = torch::tensor(in, torch::kLong).view({1, steps}).expand({rows, steps});
    const torch::Tensor wanted = torch::tensor(output, torch::kLong).view({1, steps, 1}).expand({rows, steps, 1});
    const torch::Tensor logP =
        torch::log_softmax(net.forward(ids, mask, targetIn), 2).gather(2, wanted).squeeze(2).to(torch::kDouble).contiguous();
    std::vector<std::vector<double>> scores;
    for (int64_t b = 0; b < rows; ++b)
        scores.emplace_back(logP[b].data_ptr<double>(), logP[b].data_ptr<double>() + steps);
    return scores;
}

}

std::vector<std::vector<double>> transformerOutputStepLogProbs(const TransformerModel &model,
                                                               const std::vector<std::vector<std::string>> &sources,
                                                               const std::vector<std::string> &outputTokens)
{
    const Vocabulary &vocabulary = model.vocabulary();
    std::vector<int64_t> output;
    for (const std::string &token : outputTokens)
        output.push_back(vocabulary.id(token));
    TransformerNetImpl &net = model.net();
    const EvalModeScope evalMode(net);
    torch::NoGradGuard noGradients;
    const double perSource = double(output.size()) * double(vocabulary.size());
    const std::size_t chunk = std::size_t(std::max(1.0, std::floor(kMaxErasureScoreValues / perSource)));
    std::vector<std::vector<double>> scores;
    for (std::size_t begin = 0; begin < sources.size(); begin += chunk) {
        const std::size_t end = std::min(sources.size(), begin + chunk);
        const std::vector<std::vector<std::string>> part(sources.begin() + std::ptrdiff_t(begin),
                                                         sources.begin() + std::ptrdiff_t(end));
        for (std::vector<double> &row : scoreErasedBatch(net, vocabulary, part, output))
            scores.push_back(std::move(row));
    }
    return scores;
}

FaithfulnessReport measureTransformerFaithfulness(const TransformerModel &model, const std::vector<SentencePair> &data,
                                                  Task task, const AttributionOptions &options,
                                                  const std::function<bool()> &keepGoing)
{
    validateAttributionOptions(options);
    // Decoding writes up to two tokens more than the words, each at a position of its own.
    const std::size_t longest = std::size_t(std::max(2, model.config().maxPositions - 2));
    FaithfulnessTally tally(options.methods, task);
    for (const SentencePair &pair : data) {
        if (keepGoing && !keepGoing())
            break;
        if (pair.source.size() < 2)
            continue;
        const std::vector<std::string> words(pair.source.begin(),
                                             pair.source.begin() + std::ptrdiff_t(std::min(longest, pair.source.size())));
        const TransformerAttribution explained = attributeTransformer(model, words, options);
        tally.add(explained, [&](const std::vector<std::vector<std::string>> &sources) {
            return transformerOutputStepLogProbs(model, sources, explained.outputTokens);
        });
    }
    return tally.report();
}
