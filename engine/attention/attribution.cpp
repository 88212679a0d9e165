#include "engine/attention/attribution.h"

#include "engine/attention/decodertape.h"
#include "engine/attention/encodertape.h"
#include "engine/attention/outputlogprob.h"
#include "engine/attention/pointermixture.h"
#include "engine/attention/seq2seqmodel.h"
#include "engine/attention/seq2seqnet.h"
#include "engine/core/evalmodescope.h"
#include "engine/core/integratedgradients.h"
#include "engine/fast/parallelfor.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <numeric>
#include <stdexcept>

namespace {

// The decode being explained, as the network reads it.
struct Explained {
    ScoringBatch scoring;    // the source once, with the decode as its target
    torch::Tensor embedded;  // (S, E): the source's embeddings, <EOS> last
    torch::Tensor baseline;  // (S, E): integrated gradients' e'; <EOS> keeps its embedding
    int words = 0;
    int steps = 0;
};

Explained prepare(const Seq2SeqModel &model, const DecodedSentence &sentence, const std::vector<std::string> &words,
                  IntegrationBaseline baseline)
{
    Explained x{scoringBatch(model, {words}, sentence), {}, {}, int(words.size()), sentence.rows()};
    const torch::Tensor table = model.net()->encoder->embedding->weight.detach();
    x.embedded = table.index_select(0, x.scoring.batch.source[0]);
    x.baseline = baseline == IntegrationBaseline::Zero ? torch::zeros_like(x.embedded)
                                                       : table[Vocabulary::kUnk].expand_as(x.embedded).clone();
    x.baseline[x.words] = x.embedded[x.words];
    return x;
}

// Below this many points a slice is not worth a thread of its own.
constexpr int64_t kMinPointsPerThread = 8;

// gradientsOnPoints() through autograd's graph of the decoder: from the encoder's outputs and final
// states, which go back through the encoder in one pass for every step (EncoderTape), with a GRU;
// from the embeddings otherwise.
LineGradients autogradGradientsOnPoints(Seq2SeqNetImpl &net, const Explained &x, const torch::Tensor &embedded,
                                        const torch::Tensor &weights, const std::vector<int> &steps,
                                        const std::vector<int64_t> &contrast)
{
    torch::AutoGradMode gradients(true);
    const int64_t points = embedded.size(0);
    const Batch &batch = x.scoring.batch;
    const torch::Tensor source = batch.source.repeat({points, 1}), lengths = batch.sourceLengths.repeat({points}),
                        extended = batch.sourceExtended.repeat({points, 1});
    const torch::Tensor target = x.scoring.target.narrow(1, 0, steps.back() + 2).repeat({points, 1});
    std::unique_ptr<EncoderTape> tape;
    std::vector<torch::Tensor> leaves;
    std::vector<TeacherForcedOutput> out;
    if (EncoderTape::supports(*net.encoder)) {
        tape = std::make_unique<EncoderTape>(*net.encoder, embedded);
        leaves = {tape->outputs().clone().requires_grad_(true), tape->finals().clone().requires_grad_(true)};
        out = net.fromEncoded(net.encoder->bridged(leaves[0], leaves[1].unbind(0), {}), source, target, extended, steps);
    } else {
        leaves = {embedded.clone().requires_grad_(true)};
        out = net.fromEmbeddings(leaves[0], source, lengths, target, extended, steps);
    }
    std::vector<torch::Tensor> values, grads, dOutputs, dFinals;
    for (std::size_t k = 0; k < steps.size(); ++k) {
        const int64_t t = steps[k];
        torch::Tensor f = targetLogProbs(out[k], extended, target.narrow(1, 1 + t, 1)).select(1, 0);
        if (contrast[k] >= 0) {
            const torch::Tensor other = torch::full({points, 1}, contrast[k], torch::kLong);
            f = f - targetLogProbs(out[k], extended, other).select(1, 0);
        }
        // Only the inputs' gradients: the weights' gradients are neither computed nor accumulated.
        const bool more = k + 1 < steps.size();
        const auto g = torch::autograd::grad({f.sum()}, leaves, {}, /*retain_graph=*/more, false, /*allow_unused=*/true);
        if (tape) {
            dOutputs.push_back(g[0].defined() ? g[0] : torch::zeros_like(leaves[0]));
            dFinals.push_back(g[1].defined() ? g[1] : torch::zeros_like(leaves[1]));
        } else {
            grads.push_back(g[0]);
        }
        values.push_back(f.detach());
    }
    if (tape)
        return {torch::stack(values), tape->backward(torch::stack(dOutputs), torch::stack(dFinals), weights)};
    return {torch::stack(values), torch::einsum("rp,tpse->trse", {weights, torch::stack(grads)})};
}

// Per step of `steps` (ascending): f at the points e' + alpha (e - e'), one per alpha, and its
// gradients over the source embeddings there, summed by `weights` (the points' columns of
// gradientSumWeights()). f = log P(y_t), minus log P(contrast[k]) where that is >= 0. The points
// are one batch, run as far as the last step. With a GRU and Bahdanau's attention the network's
// pass is written out by hand (EncoderTape, decoderTapeGradients) and every step's gradients go
// back in one sweep; otherwise through autograd.
LineGradients gradientsOnPoints(const Seq2SeqModel &model, const Explained &x, const std::vector<double> &alphas,
                                const torch::Tensor &weights, const std::vector<int> &steps,
                                const std::vector<int64_t> &contrast)
{
    Seq2SeqNetImpl &net = *model.net();
    const int64_t points = int64_t(alphas.size());
    const torch::Tensor alpha = torch::tensor(alphas).to(torch::kFloat).view({points, 1, 1});
    const torch::Tensor embedded = x.baseline + alpha * (x.embedded - x.baseline);
    if (!EncoderTape::supports(*net.encoder) || !decoderTapeSupports(net))
        return autogradGradientsOnPoints(net, x, embedded, weights, steps, contrast);
    const EncoderTape tape(*net.encoder, embedded);
    const DecoderTapeGradients d =
        decoderTapeGradients(net, tape.outputs(), tape.finals(), x.scoring.target, steps, contrast);
    return {d.values, tape.backward(d.dOutputs, d.dFinals, weights)};
}

// The same over the points in slices, side by side on LibTorch's intra-op thread count: the
// points are independent, and one slice's small multiplies gain little from a second thread.
LineGradients gradientsAlongLine(const Seq2SeqModel &model, const Explained &x, const std::vector<double> &alphas,
                                 const std::vector<int> &steps, const std::vector<int64_t> &contrast)
{
    EvalModeScope evalMode(model.net());  // once, outside the threads: it sets the net's mode
    const torch::Tensor weights = gradientSumWeights(int64_t(alphas.size()));
    return joinSlices(overShards(int64_t(alphas.size()), kMinPointsPerThread, torch::get_num_threads(),
                                 [&](int64_t begin, int64_t end) {
                                     return gradientsOnPoints(model, x, {alphas.begin() + begin, alphas.begin() + end},
                                                              weights.narrow(1, begin, end - begin), steps, contrast);
                                 }));
}

// log P over the (extended) vocabulary at every output step, for each source: (B, T, E).
torch::Tensor logDistributions(const Seq2SeqModel &model, const ScoringBatch &scoring)
{
    torch::NoGradGuard noGradients;
    EvalModeScope evalMode(model.net());
    const Batch &b = scoring.batch;
    const TeacherForcedOutput out =
        model.net()->forward(b.source, b.sourceLengths, scoring.target, [] { return true; }, b.sourceExtended);
    if (!out.copyGate.defined())
        return torch::log_softmax(out.logits, 2);
    return pointerDistribution(out.logits, out.weights, out.copyGate, b.sourceExtended).log();
}

// A map of `rows` rows from the scores of the rows `first`, `first` + 1, ...; NaN in the others.
AttributionMap mapOf(AttributionMethod method, const torch::Tensor &scores, int rows, int first)
{
    const torch::Tensor s = scores.to(torch::kDouble).contiguous();
    AttributionMap map{method, rows, int(s.size(1)), std::vector<double>(std::size_t(rows) * std::size_t(s.size(1)), NAN)};
    std::copy(s.data_ptr<double>(), s.data_ptr<double>() + s.numel(), map.scores.begin() + std::ptrdiff_t(first) * s.size(1));
    return map;
}

AttributionMap attentionMap(const DecodedSentence &sentence, int words)
{
    AttributionMap map{AttributionMethod::Attention, sentence.rows(), words, {}};
    for (int t = 0; t < sentence.rows(); ++t)
        for (int i = 0; i < words; ++i)
            map.scores.push_back(sentence.weight(t, i));
    return map;
}

}  // namespace

bool SentenceAttribution::explains(AttributionMethod method, int row) const
{
    if (map(method) == nullptr || row < -1 || row >= sentence.rows())
        return false;
    return !attributionReadsGradients(method) || gradientRow < 0 || gradientRow == row;
}

SentenceAttribution attribute(const Seq2SeqModel &model, const std::vector<std::string> &words,
                              const AttributionOptions &options)
{
    validateAttributionOptions(options);
    SentenceAttribution result;
    result.sentence = model.decode(words);
    result.setTokens(result.sentence.sourceTokens, result.sentence.outputTokens);
    const Explained x = prepare(model, result.sentence, result.words, options.baseline);

    const torch::Tensor logP = logDistributions(model, x.scoring)[0];  // (T, E)
    const torch::Tensor next = x.scoring.target[0].narrow(0, 1, x.steps);
    const torch::Tensor top = std::get<1>(logP.topk(2, 1));
    const ExtendedSource source = extendedSource(result.words, model.vocabulary());
    const auto wordOf = [&](int64_t id) {
        return id < model.vocabulary().size() ? model.vocabulary().word(int(id))
                                              : source.unknownWords[std::size_t(id - model.vocabulary().size())];
    };
    for (int t = 0; t < x.steps; ++t) {
        const int64_t y = next[t].item<int64_t>();
        const int64_t runnerUp = top[t][0].item<int64_t>() == y ? top[t][1].item<int64_t>() : top[t][0].item<int64_t>();
        const double logProb = logP[t][y].item<double>();
        result.steps.push_back({logProb, torch::special::entr(logP[t].exp()).sum().item<double>(),
                                logProb - logP[t][runnerUp].item<double>(), wordOf(runnerUp)});
    }

    result.gradientRow = options.gradientRow;
    std::vector<int> gradientSteps;
    for (int t = 0; t < x.steps; ++t)
        if (options.gradientRow < 0 || t == options.gradientRow)
            gradientSteps.push_back(t);
    const int firstGradientRow = gradientSteps.empty() ? 0 : gradientSteps.front();
    LineGradients line;
    if (!gradientSteps.empty() && std::any_of(options.methods.begin(), options.methods.end(), attributionReadsGradients))
        line = gradientsAlongLine(model, x, integrationPoints(options.methods, options.integrationSteps), gradientSteps,
                                  std::vector<int64_t>(gradientSteps.size(), -1));
    for (AttributionMethod method : options.methods) {
        if (method == AttributionMethod::Attention) {
            if (model.hasAttention())
                result.maps.push_back(attentionMap(result.sentence, x.words));
        } else if (method == AttributionMethod::Occlusion) {
            std::vector<std::vector<std::string>> sources{result.words};
            for (std::size_t i = 0; i < result.words.size(); ++i)
                sources.push_back(removeWord(result.words, i, options.occlusion));
            const std::vector<std::vector<double>> changed = outputStepLogProbs(model, sources, result.sentence);
            AttributionMap map{method, x.steps, x.words, {}};
            for (int t = 0; t < x.steps; ++t)
                for (int i = 0; i < x.words; ++i)
                    map.scores.push_back(changed[0][std::size_t(t)] - changed[std::size_t(i) + 1][std::size_t(t)]);
            result.maps.push_back(std::move(map));
        } else if (gradientSteps.empty()) {
            result.maps.push_back(mapOf(method, torch::empty({0, x.words}), x.steps, 0));
            if (method == AttributionMethod::IntegratedGradients)
                result.integrationDelta = result.completenessGap = std::vector<double>(std::size_t(x.steps), NAN);
        } else {
            const torch::Tensor scores = gradientMethodScores(method, line.sums, x.embedded, x.baseline, x.words);
            result.maps.push_back(mapOf(method, scores, x.steps, firstGradientRow));
            if (method == AttributionMethod::IntegratedGradients) {
                const torch::Tensor delta = (line.values.select(1, -1) - line.values.select(1, -2)).to(torch::kDouble);
                const AttributionMap &ig = result.maps.back();
                result.integrationDelta = result.completenessGap = std::vector<double>(std::size_t(x.steps), NAN);
                for (std::size_t k = 0; k < gradientSteps.size(); ++k) {
                    const std::size_t t = std::size_t(gradientSteps[k]);
                    const std::vector<double> row = ig.row(int(t));
                    result.integrationDelta[t] = delta[int64_t(k)].item<double>();
                    result.completenessGap[t] =
                        std::abs(std::accumulate(row.begin(), row.end(), 0.0) - result.integrationDelta[t]);
                }
            }
        }
    }
    return result;
}

ContrastiveAttribution attributeContrast(const Seq2SeqModel &model, const SentenceAttribution &explained, int row,
                                         const std::string &alternative, const AttributionOptions &options)
{
    validateAttributionOptions(options);
    const DecodedSentence &sentence = explained.sentence;
    if (row < 0 || row >= sentence.rows())
        throw std::invalid_argument("output step " + std::to_string(row + 1) + " is not in the output (it has " +
                                    std::to_string(sentence.rows()) + " steps)");
    const Vocabulary &vocabulary = model.vocabulary();
    const bool pointer = model.config().usesPointer();
    const Explained x = prepare(model, sentence, explained.words, options.baseline);
    const auto idIn = [&](const std::vector<std::string> &words) {
        return pointer ? extendedId(alternative, extendedSource(words, vocabulary), vocabulary) : vocabulary.id(alternative);
    };
    const int64_t alternativeId = idIn(explained.words);
    if (alternativeId == Vocabulary::kUnk && alternative != vocabulary.word(Vocabulary::kUnk))
        throw std::invalid_argument("'" + alternative + "' is a word the model cannot write: it is not in its vocabulary" +
                                    (pointer ? " nor in the sentence to copy from" : ""));
    if (alternativeId == Vocabulary::kPad || alternativeId == Vocabulary::kSos)
        throw std::invalid_argument("the model never writes " + alternative + "; pick a word");
    if (alternativeId == x.scoring.target[0][row + 1].item<int64_t>())
        throw std::invalid_argument("'" + alternative + "' is the word the model wrote there; pick another to compare with");

    ContrastiveAttribution result;
    result.row = row;
    result.alternative = alternative;
    LineGradients line;
    std::vector<AttributionMethod> methods;
    for (const AttributionMap &m : explained.maps)
        methods.push_back(m.method);
    if (std::any_of(methods.begin(), methods.end(), attributionReadsGradients))
        line = gradientsAlongLine(model, x, integrationPoints(methods, options.integrationSteps), {row}, {alternativeId});
    // f for the source and for each source with a word taken out: log P(y_row) - log P(alternative).
    std::vector<std::vector<std::string>> sources{explained.words};
    for (std::size_t i = 0; i < explained.words.size(); ++i)
        sources.push_back(removeWord(explained.words, i, options.occlusion));
    const ScoringBatch scoring = scoringBatch(model, sources, sentence);
    const torch::Tensor logP = logDistributions(model, scoring).select(1, row);  // (sources, E)
    std::vector<double> f;
    for (std::size_t s = 0; s < sources.size(); ++s) {
        const int64_t y = scoring.target[int64_t(s)][row + 1].item<int64_t>(), other = idIn(sources[s]);
        const double logPOther = other < logP.size(1) ? logP[int64_t(s)][other].item<double>() : -INFINITY;
        f.push_back(logP[int64_t(s)][y].item<double>() - logPOther);
    }
    result.logProbDifference = f.front();
    for (AttributionMethod method : methods) {
        if (method == AttributionMethod::Attention) {
            AttributionMap attention = attentionMap(sentence, x.words);
            result.maps.push_back({method, 1, x.words, attention.row(row)});
        } else if (method == AttributionMethod::Occlusion) {
            AttributionMap map{method, 1, x.words, {}};
            for (int i = 0; i < x.words; ++i)
                map.scores.push_back(f.front() - f[std::size_t(i) + 1]);
            result.maps.push_back(std::move(map));
        } else {
            result.maps.push_back(
                mapOf(method, gradientMethodScores(method, line.sums, x.embedded, x.baseline, x.words), 1, 0));
        }
    }
    return result;
}
