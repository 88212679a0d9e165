#include "engine/transformer/transformerattribution.h"

#include "engine/core/evalmodescope.h"
#include "engine/core/integratedgradients.h"
#include "engine/core/vocabulary.h"
#include "engine/fast/parallelfor.h"
#include "engine/transformer/attentionrollout.h"
#include "engine/transformer/transformernet.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace {

// Below this many points a slice is not worth a thread of its own.
constexpr int64_t kMinPointsPerSlice = 8;

torch::Tensor idTensor(const std::vector<int64_t> &ids)
{
    return torch::tensor(ids, torch::kLong).view({1, int64_t(ids.size())});
}

// The decode being explained, as the network reads it.
struct TransformerExplained {
    torch::Tensor source;     // (1, S): the words' ids, <EOS> last
    torch::Tensor targetIn;   // (1, T): <SOS>, then the output without its last token
    torch::Tensor targetOut;  // (T): the output's ids
    torch::Tensor embedded;   // (S, d): the source's token embeddings
    torch::Tensor baseline;   // (S, d): integrated gradients' e'; <EOS> keeps its embedding
    int words = 0;
    int steps = 0;
};

std::vector<int64_t> idsOf(const Vocabulary &vocabulary, const std::vector<std::string> &words)
{
    std::vector<int64_t> ids;
    for (const std::string &word : words)
        ids.push_back(vocabulary.id(word));
    return ids;
}

TransformerExplained prepareExplained(const TransformerModel &model, const TransformerOutput &output, IntegrationBaseline baseline)
{
    const Vocabulary &vocabulary = model.vocabulary();
    TransformerExplained x;
    x.words = int(output.sourceTokens.size()) - 1;
    x.steps = int(output.outputTokens.size());
    x.source = idTensor(idsOf(vocabulary, output.sourceTokens));
    std::vector<int64_t> out = idsOf(vocabulary, output.outputTokens);
    std::vector<int64_t> in{Vocabulary::kSos};
    in.insert(in.end(), out.begin(), out.end() - 1);
    x.targetIn = idTensor(in);
    x.targetOut = torch::tensor(out, torch::kLong);
    const torch::Tensor table = model.net().sourceEmbedding->weight.detach();
    x.embedded = table.index_select(0, x.source[0]);
    x.baseline = baseline == IntegrationBaseline::Zero ? torch::zeros_like(x.embedded)
                                                       : table[Vocabulary::kUnk].expand_as(x.embedded).clone();
    x.baseline[x.words] = x.embedded[x.words];
    return x;
}

// log P over the vocabulary at the output steps up to `last`, teacher-forced, for each row of
// token embeddings (B, S, d): (B, last + 1, V).
torch::Tensor teacherForcedLogDistributions(TransformerNetImpl &net, const TransformerExplained &x,
                                            const torch::Tensor &tokenEmbeddings, int64_t last)
{
    const int64_t rows = tokenEmbeddings.size(0);
    const torch::Tensor mask = torch::ones({rows, tokenEmbeddings.size(1)}, torch::kBool);
    const torch::Tensor logits =
        net.decode(net.encodeEmbeddings(tokenEmbeddings, mask), x.targetIn.narrow(1, 0, last + 1).expand({rows, -1}));
    return torch::log_softmax(logits, 2);
}

// log P(y_t) at the output steps up to `last` from those distributions: (B, last + 1).
torch::Tensor outputLogProbsOf(const TransformerExplained &x, const torch::Tensor &logDistributions)
{
    const int64_t rows = logDistributions.size(0), steps = logDistributions.size(1);
    const torch::Tensor wanted = x.targetOut.narrow(0, 0, steps).view({1, -1, 1}).expand({rows, -1, 1});
    return logDistributions.gather(2, wanted).squeeze(2);
}

torch::Tensor teacherForcedLogProbs(TransformerNetImpl &net, const TransformerExplained &x, const torch::Tensor &tokenEmbeddings,
                             int64_t last)
{
    return outputLogProbsOf(x, teacherForcedLogDistributions(net, x, tokenEmbeddings, last));
}

// Per step of `steps` (ascending): f_t at the points e' + alpha (e - e'), one per alpha, and its
// gradients over the source embeddings there. f_t = log P(y_t), minus log P(contrast[k]) where that
// is >= 0. One forward pass for all points, as far as the last step; each step's gradients a
// backward pass of their own through it; summed by `weights`, the points' columns of
// gradientSumWeights().
LineGradients transformerGradientsOnPoints(TransformerNetImpl &net, const TransformerExplained &x,
                                           const std::vector<double> &alphas, const torch::Tensor &weights,
                                           const std::vector<int> &steps, const std::vector<int64_t> &contrast)
{
    torch::AutoGradMode gradients(true);
    const int64_t points = int64_t(alphas.size());
    const torch::Tensor alpha = torch::tensor(alphas).to(torch::kFloat).view({points, 1, 1});
    const torch::Tensor input = (x.baseline + alpha * (x.embedded - x.baseline)).requires_grad_(true);
    const torch::Tensor logDistributions = teacherForcedLogDistributions(net, x, input, steps.back());
    const torch::Tensor logP = outputLogProbsOf(x, logDistributions);
    std::vector<torch::Tensor> values, grads;
    for (std::size_t k = 0; k < steps.size(); ++k) {
        torch::Tensor f = logP.select(1, steps[k]);
        if (contrast[k] >= 0)
            f = f - logDistributions.select(1, steps[k]).select(1, contrast[k]);
        // Only the input's gradient: the weights' gradients are neither computed nor accumulated.
        grads.push_back(torch::autograd::grad({f.sum()}, {input}, {}, /*retain_graph=*/k + 1 < steps.size())[0]);
        values.push_back(f.detach());
    }
    return {torch::stack(values), torch::einsum("rp,tpsd->trsd", {weights, torch::stack(grads)})};
}

// The same over the points in slices side by side, one per LibTorch intra-op thread.
LineGradients transformerGradientsAlongLine(TransformerNetImpl &net, const TransformerExplained &x,
                                            const std::vector<double> &alphas, const std::vector<int> &steps,
                                            const std::vector<int64_t> &contrast)
{
    const torch::Tensor weights = gradientSumWeights(int64_t(alphas.size()));
    return joinSlices(
        overShards(int64_t(alphas.size()), kMinPointsPerSlice, torch::get_num_threads(), [&](int64_t begin, int64_t end) {
            return transformerGradientsOnPoints(net, x, {alphas.begin() + begin, alphas.begin() + end},
                                                weights.narrow(1, begin, end - begin), steps, contrast);
        }));
}

// A map whose rows `steps` hold `scores`' rows in turn; NaN in the others.
AttributionMap mapOfSteps(AttributionMethod method, const torch::Tensor &scores, int rows, const std::vector<int> &steps)
{
    const torch::Tensor s = scores.to(torch::kDouble).contiguous();
    const int columns = int(s.size(1));
    AttributionMap map{method, rows, columns, std::vector<double>(std::size_t(rows) * std::size_t(columns), NAN)};
    for (std::size_t k = 0; k < steps.size(); ++k)
        std::copy_n(s.data_ptr<double>() + k * std::size_t(columns), columns,
                    map.scores.begin() + std::ptrdiff_t(steps[k]) * columns);
    return map;
}

// A rows x (words + 1) matrix of weights as a map of its first `words` columns.
template <typename Weight>
AttributionMap weightMap(AttributionMethod method, int rows, int words, const Weight &weight)
{
    AttributionMap map{method, rows, words, {}};
    for (int t = 0; t < rows; ++t)
        for (int i = 0; i < words; ++i)
            map.scores.push_back(weight(t, i));
    return map;
}

std::vector<StepScore> stepScores(TransformerNetImpl &net, const Vocabulary &vocabulary, const TransformerExplained &x)
{
    const torch::Tensor mask = torch::ones_like(x.source, torch::kBool);
    const torch::Tensor logP = torch::log_softmax(net.forward(x.source, mask, x.targetIn), 2)[0];  // (T, V)
    const torch::Tensor top = std::get<1>(logP.topk(2, 1));
    std::vector<StepScore> steps;
    for (int t = 0; t < x.steps; ++t) {
        const int64_t y = x.targetOut[t].item<int64_t>();
        const int64_t runnerUp = top[t][0].item<int64_t>() == y ? top[t][1].item<int64_t>() : top[t][0].item<int64_t>();
        const double logProb = logP[t][y].item<double>();
        steps.push_back({logProb, torch::special::entr(logP[t].exp()).sum().item<double>(),
                         logProb - logP[t][runnerUp].item<double>(), vocabulary.word(int(runnerUp))});
    }
    return steps;
}

// The source with each word taken out in turn, a row each (they share a length): (words, S').
torch::Tensor occludedSources(const Vocabulary &vocabulary, const std::vector<std::string> &words, RemovalMode mode)
{
    std::vector<torch::Tensor> sources;
    for (std::size_t i = 0; i < words.size(); ++i) {
        std::vector<int64_t> ids = idsOf(vocabulary, removeWord(words, i, mode));
        ids.push_back(Vocabulary::kEos);
        sources.push_back(torch::tensor(ids, torch::kLong));
    }
    return torch::stack(sources);
}

// f_t(source) - f_t(source without word i), every variant in one batch.
AttributionMap occlusionMap(TransformerNetImpl &net, const Vocabulary &vocabulary, const TransformerExplained &x,
                            const std::vector<std::string> &words, RemovalMode mode)
{
    const torch::Tensor first = x.source;
    const torch::Tensor rest = occludedSources(vocabulary, words, mode);
    const auto logProbs = [&](const torch::Tensor &ids) {
        return teacherForcedLogProbs(net, x, net.sourceEmbedding(ids), x.steps - 1);
    };
    const torch::Tensor fall = logProbs(first) - logProbs(rest);  // (words, T)
    return mapOfSteps(AttributionMethod::Occlusion, fall.t(), x.steps, [&] {
        std::vector<int> all(std::size_t(x.steps));
        std::iota(all.begin(), all.end(), 0);
        return all;
    }());
}

// log P(y_row) - log P(alternative), teacher-forced, for each source (B, S) of ids: (B).
torch::Tensor contrastOf(TransformerNetImpl &net, const TransformerExplained &x, const torch::Tensor &sources, int row,
                         int64_t alternative)
{
    const torch::Tensor logP = teacherForcedLogDistributions(net, x, net.sourceEmbedding(sources), row).select(1, row);
    return logP.select(1, x.targetOut[row].item<int64_t>()) - logP.select(1, alternative);
}

}  // namespace

const std::vector<AttributionMethod> &transformerAttributionMethods()
{
    static const std::vector<AttributionMethod> methods = [] {
        std::vector<AttributionMethod> all = allAttributionMethods();
        all.push_back(AttributionMethod::Rollout);
        return all;
    }();
    return methods;
}

TransformerAttribution attributeTransformer(const TransformerModel &model, const std::vector<std::string> &words,
                                            const AttributionOptions &options)
{
    validateAttributionOptions(options);
    TransformerAttribution result;
    result.output = model.decode(words);
    result.setTokens(result.output.sourceTokens, result.output.outputTokens);
    TransformerNetImpl &net = model.net();
    const EvalModeScope evalMode(net);
    const TransformerExplained x = prepareExplained(model, result.output, options.baseline);
    {
        torch::NoGradGuard noGradients;
        result.steps = stepScores(net, model.vocabulary(), x);
    }
    result.gradientRow = options.gradientRow;
    std::vector<int> gradientSteps;
    for (int t = 0; t < x.steps; ++t)
        if (options.gradientRow < 0 || t == options.gradientRow)
            gradientSteps.push_back(t);
    LineGradients line;
    const std::vector<AttributionMethod> &methods = options.methods;
    if (!gradientSteps.empty() && std::any_of(methods.begin(), methods.end(), attributionReadsGradients))
        line = transformerGradientsAlongLine(net, x, integrationPoints(methods, options.integrationSteps), gradientSteps,
                                             std::vector<int64_t>(gradientSteps.size(), -1));
    for (AttributionMethod method : methods) {
        if (method == AttributionMethod::Attention) {
            const LayeredAttention &cross = result.output.cross;
            const std::vector<std::vector<float>> &heads = cross.weights.back();
            result.maps.push_back(weightMap(method, x.steps, x.words, [&](int t, int i) {
                double sum = 0;
                for (const std::vector<float> &head : heads)
                    sum += head[std::size_t(t) * std::size_t(cross.columns) + std::size_t(i)];
                return sum / double(heads.size());
            }));
        } else if (method == AttributionMethod::Rollout) {
            const RolloutMatrix rollout =
                crossAttentionRollout(result.output.encoderSelf, result.output.decoderSelf, result.output.cross);
            result.maps.push_back(
                weightMap(method, x.steps, x.words, [&](int t, int i) { return double(rollout.at(t, i)); }));
        } else if (method == AttributionMethod::Occlusion) {
            torch::NoGradGuard noGradients;
            result.maps.push_back(occlusionMap(net, model.vocabulary(), x, result.words, options.occlusion));
        } else {
            const torch::Tensor scores =
                gradientSteps.empty() ? torch::empty({0, x.words})
                                      : gradientMethodScores(method, line.sums, x.embedded, x.baseline, x.words);
            result.maps.push_back(mapOfSteps(method, scores, x.steps, gradientSteps));
            if (method != AttributionMethod::IntegratedGradients)
                continue;
            result.integrationDelta = result.completenessGap = std::vector<double>(std::size_t(x.steps), NAN);
            if (gradientSteps.empty())
                continue;
            const torch::Tensor delta = (line.values.select(1, -1) - line.values.select(1, -2)).to(torch::kDouble);
            const AttributionMap &ig = result.maps.back();
            for (std::size_t k = 0; k < gradientSteps.size(); ++k) {
                const std::size_t t = std::size_t(gradientSteps[k]);
                const std::vector<double> row = ig.row(int(t));
                result.integrationDelta[t] = delta[int64_t(k)].item<double>();
                result.completenessGap[t] = std::abs(std::accumulate(row.begin(), row.end(), 0.0) - result.integrationDelta[t]);
            }
        }
    }
    return result;
}

ContrastiveAttribution attributeTransformerContrast(const TransformerModel &model, const TransformerAttribution &explained,
                                                    int row, const std::string &alternative, const AttributionOptions &options)
{
    validateAttributionOptions(options);
    const std::vector<std::string> &output = explained.output.outputTokens;
    if (row < 0 || row >= int(output.size()))
        throw std::invalid_argument("output step " + std::to_string(row + 1) + " is not in the output (it has " +
                                    std::to_string(output.size()) + " steps)");
    const Vocabulary &vocabulary = model.vocabulary();
    const int alternativeId = vocabulary.id(alternative);
    if (alternativeId == Vocabulary::kUnk && alternative != vocabulary.word(Vocabulary::kUnk))
        throw std::invalid_argument("'" + alternative + "' is a word the model cannot write: it is not in its vocabulary");
    if (alternativeId == Vocabulary::kPad || alternativeId == Vocabulary::kSos)
        throw std::invalid_argument("the model never writes " + alternative + "; pick a word");
    if (alternativeId == vocabulary.id(output[std::size_t(row)]))
        throw std::invalid_argument("'" + alternative + "' is the word the model wrote there; pick another to compare with");

    TransformerNetImpl &net = model.net();
    const EvalModeScope evalMode(net);
    const TransformerExplained x = prepareExplained(model, explained.output, options.baseline);
    ContrastiveAttribution result;
    result.row = row;
    result.alternative = alternative;
    std::vector<AttributionMethod> methods;
    for (const AttributionMap &map : explained.maps)
        methods.push_back(map.method);
    LineGradients line;
    if (std::any_of(methods.begin(), methods.end(), attributionReadsGradients))
        line = transformerGradientsAlongLine(net, x, integrationPoints(methods, options.integrationSteps), {row},
                                             {int64_t(alternativeId)});
    torch::NoGradGuard noGradients;
    result.logProbDifference = contrastOf(net, x, x.source, row, alternativeId)[0].item<double>();
    for (const AttributionMap &map : explained.maps) {
        if (map.method == AttributionMethod::Attention || map.method == AttributionMethod::Rollout) {
            result.maps.push_back({map.method, 1, x.words, map.row(row)});
        } else if (map.method == AttributionMethod::Occlusion) {
            const torch::Tensor without =
                contrastOf(net, x, occludedSources(vocabulary, explained.words, options.occlusion), row, alternativeId);
            result.maps.push_back(
                mapOfSteps(map.method, (result.logProbDifference - without).view({1, -1}), 1, {0}));
        } else {
            result.maps.push_back(mapOfSteps(
                map.method, gradientMethodScores(map.method, line.sums, x.embedded, x.baseline, x.words), 1, {0}));
        }
    }
    return result;
}
