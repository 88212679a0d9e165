#include "tests/common/testregistry.h"
#include "tests/common/tinytransformer.h"
#include "engine/core/vocabulary.h"
#include "engine/transformer/attentionrollout.h"
#include "engine/transformer/transformerattribution.h"
#include "engine/transformer/transformernet.h"

#include <QtTest>

#include <cmath>
#include <numeric>
#include <stdexcept>

namespace {

const std::vector<std::string> kAttributionWords{"red", "green", "blue", "fox", "cat", "dog", "runs", "sits"};
const std::vector<std::string> kExplainedSentence{"red", "fox", "runs", "blue", "cat"};

// Weights drawn wider than Xavier's, so outputs depend on their words strongly enough for finite
// differences to read.
TransformerModel sharpModel(bool preNorm)
{
    TransformerConfig config = tinyTransformer(2, 2, 16, 24);
    config.preNorm = preNorm;
    config.maxPositions = 16;
    TransformerModel model(config, Vocabulary(kAttributionWords), Task::Reverse, 7);
    torch::manual_seed(13);
    torch::NoGradGuard noGrad;
    for (torch::Tensor &parameter : model.net().parameters())
        parameter.uniform_(-0.5, 0.5);
    model.net().output->weight.mul_(8);
    return model;
}

std::vector<int64_t> idsOf(const Vocabulary &vocabulary, const std::vector<std::string> &tokens)
{
    std::vector<int64_t> ids;
    for (const std::string &token : tokens)
        ids.push_back(vocabulary.id(token));
    return ids;
}

// The model's network in double precision, for finite differences float would drown.
TransformerNet doubleTwin(const TransformerModel &model)
{
    TransformerNet twin(model.config(), model.vocabulary().size());
    torch::NoGradGuard noGrad;
    const auto weights = model.net().named_parameters();
    for (auto &parameter : twin->named_parameters())
        parameter.value().copy_(weights[parameter.key()]);
    twin->to(torch::kDouble);
    twin->eval();
    return twin;
}

// log P(y_t) of `explained`'s output at every step, teacher-forced, for `source` (ids, <EOS> last):
// LibTorch's own pass over `net`.
std::vector<double> outputLogProbs(TransformerNetImpl &net, const Vocabulary &vocabulary,
                                   const TransformerAttribution &explained, const std::vector<int64_t> &source)
{
    const std::vector<int64_t> out = idsOf(vocabulary, explained.output.outputTokens);
    std::vector<int64_t> in{Vocabulary::kSos};
    in.insert(in.end(), out.begin(), out.end() - 1);
    torch::NoGradGuard noGrad;
    net.eval();
    const torch::Tensor logits = net.forward(torch::tensor(source).view({1, -1}),
                                             torch::ones({1, int64_t(source.size())}, torch::kBool),
                                             torch::tensor(in).view({1, -1}));
    const torch::Tensor logP = torch::log_softmax(logits[0].to(torch::kDouble), 1);
    std::vector<double> result;
    for (std::size_t t = 0; t < out.size(); ++t)
        result.push_back(logP[int64_t(t)][out[t]].item<double>());
    return result;
}

std::vector<int64_t> sourceIds(const TransformerModel &model, const std::vector<std::string> &words)
{
    std::vector<int64_t> ids = idsOf(model.vocabulary(), words);
    ids.push_back(Vocabulary::kEos);
    return ids;
}

AttributionOptions only(std::vector<AttributionMethod> methods)
{
    AttributionOptions options;
    options.methods = std::move(methods);
    return options;
}

}  // namespace

// attributeTransformer() against hand computations: finite differences for the gradients, the
// forward pass with a word left out for occlusion, the decode's own weights for attention and
// rollout, and integrated gradients' completeness.
class TestTransformerAttribution : public QObject
{
    Q_OBJECT
private slots:
    void inputTimesGradientIsTheDerivativeAlongTheEmbedding_data();
    void inputTimesGradientIsTheDerivativeAlongTheEmbedding();
    void integratedGradientsAddUpToTheChange();
    void occlusionIsTheFallWithTheWordLeftOut_data();
    void occlusionIsTheFallWithTheWordLeftOut();
    void attentionAndRolloutAreTheDecodesWeights();
    void stepScoresDescribeTheDistribution();
    void oneGradientRowLeavesTheOthersEmpty();
    void refusesWhatItCannotExplain();
};

void TestTransformerAttribution::inputTimesGradientIsTheDerivativeAlongTheEmbedding_data()
{
    QTest::addColumn<bool>("preNorm");
    QTest::newRow("pre-LN") << true;
    QTest::newRow("post-LN") << false;
}

// e_i . df_t/de_i is d/de f_t(e_i (1 + e)) at e = 0: a central difference in double precision
// scaling word i's row of the embedding table (every word of the sentence is a different one).
void TestTransformerAttribution::inputTimesGradientIsTheDerivativeAlongTheEmbedding()
{
    QFETCH(bool, preNorm);
    const TransformerModel model = sharpModel(preNorm);
    const TransformerAttribution explained =
        attributeTransformer(model, kExplainedSentence, only({AttributionMethod::InputTimesGradient, AttributionMethod::Saliency}));
    const AttributionMap &inputTimesGradient = *explained.map(AttributionMethod::InputTimesGradient);
    const AttributionMap &saliency = *explained.map(AttributionMethod::Saliency);
    QCOMPARE(inputTimesGradient.rows, int(explained.output.outputTokens.size()));
    QCOMPARE(inputTimesGradient.columns, int(kExplainedSentence.size()));
    const std::vector<int64_t> source = sourceIds(model, kExplainedSentence);
    TransformerNet twin = doubleTwin(model);
    constexpr double kStep = 1e-5;
    for (int i = 0; i < int(kExplainedSentence.size()); ++i) {
        torch::Tensor row = twin->sourceEmbedding->weight[source[std::size_t(i)]];
        const torch::Tensor original = row.detach().clone();
        std::vector<double> up, down;
        {
            torch::NoGradGuard noGrad;
            row.copy_(original * (1 + kStep));
            up = outputLogProbs(*twin, model.vocabulary(), explained, source);
            row.copy_(original * (1 - kStep));
            down = outputLogProbs(*twin, model.vocabulary(), explained, source);
            row.copy_(original);
        }
        for (int t = 0; t < inputTimesGradient.rows; ++t) {
            const double difference = (up[std::size_t(t)] - down[std::size_t(t)]) / (2 * kStep);
            QVERIFY2(std::abs(inputTimesGradient.at(t, i) - difference) <= 1e-4 * std::abs(difference) + 1e-7,
                     qPrintable(QStringLiteral("step %1, word %2: %3 against %4")
                                    .arg(QString::number(t), QString::number(i),
                                         QString::number(inputTimesGradient.at(t, i)), QString::number(difference))));
            // Cauchy-Schwarz: |e . g| <= |e| |g|.
            QVERIFY(std::abs(inputTimesGradient.at(t, i)) <= saliency.at(t, i) * original.norm().item<double>() * 1.0001);
        }
    }
}

void TestTransformerAttribution::integratedGradientsAddUpToTheChange()
{
    const TransformerModel model = sharpModel(true);
    for (IntegrationBaseline baseline : {IntegrationBaseline::Zero, IntegrationBaseline::Unknown}) {
        AttributionOptions options = only({AttributionMethod::IntegratedGradients});
        options.baseline = baseline;
        const TransformerAttribution explained = attributeTransformer(model, kExplainedSentence, options);
        const AttributionMap &ig = *explained.map(AttributionMethod::IntegratedGradients);
        QCOMPARE(int(explained.completenessGap.size()), ig.rows);
        for (int t = 0; t < ig.rows; ++t) {
            const std::vector<double> row = ig.row(t);
            const double sum = std::accumulate(row.begin(), row.end(), 0.0);
            QCOMPARE(explained.completenessGap[std::size_t(t)], std::abs(sum - explained.integrationDelta[std::size_t(t)]));
            QVERIFY2(explained.completenessGap[std::size_t(t)] <= 0.01 * std::abs(explained.integrationDelta[std::size_t(t)]) + 1e-3,
                     qPrintable(QStringLiteral("step %1: gap %2 for a change of %3")
                                    .arg(QString::number(t), QString::number(explained.completenessGap[std::size_t(t)]),
                                         QString::number(explained.integrationDelta[std::size_t(t)]))));
        }
    }
}

void TestTransformerAttribution::occlusionIsTheFallWithTheWordLeftOut_data()
{
    QTest::addColumn<int>("mode");
    QTest::newRow("drop") << int(RemovalMode::Drop);
    QTest::newRow("unknown") << int(RemovalMode::Unknown);
}

void TestTransformerAttribution::occlusionIsTheFallWithTheWordLeftOut()
{
    QFETCH(int, mode);
    const TransformerModel model = sharpModel(true);
    AttributionOptions options = only({AttributionMethod::Occlusion});
    options.occlusion = RemovalMode(mode);
    const TransformerAttribution explained = attributeTransformer(model, kExplainedSentence, options);
    const AttributionMap &occlusion = *explained.map(AttributionMethod::Occlusion);
    const std::vector<double> whole = outputLogProbs(model.net(), model.vocabulary(), explained, sourceIds(model, kExplainedSentence));
    for (std::size_t i = 0; i < kExplainedSentence.size(); ++i) {
        const std::vector<double> without =
            outputLogProbs(model.net(), model.vocabulary(), explained, sourceIds(model, removeWord(kExplainedSentence, i, RemovalMode(mode))));
        for (int t = 0; t < occlusion.rows; ++t)
            QVERIFY(std::abs(occlusion.at(t, int(i)) - (whole[std::size_t(t)] - without[std::size_t(t)])) < 1e-4);
    }
}

void TestTransformerAttribution::attentionAndRolloutAreTheDecodesWeights()
{
    const TransformerModel model = sharpModel(true);
    const TransformerAttribution explained =
        attributeTransformer(model, kExplainedSentence, only({AttributionMethod::Rollout, AttributionMethod::Attention}));
    QCOMPARE(explained.maps.front().method, AttributionMethod::Rollout);  // in the order asked
    const AttributionMap &attention = *explained.map(AttributionMethod::Attention);
    const LayeredAttention &cross = explained.output.cross;
    const RolloutMatrix rollout =
        crossAttentionRollout(explained.output.encoderSelf, explained.output.decoderSelf, cross);
    const AttributionMap &rolled = *explained.map(AttributionMethod::Rollout);
    for (int t = 0; t < attention.rows; ++t)
        for (int i = 0; i < attention.columns; ++i) {
            const std::vector<std::vector<float>> &last = cross.weights.back();
            const double mean = (last[0][std::size_t(t * cross.columns + i)] + last[1][std::size_t(t * cross.columns + i)]) / 2;
            QVERIFY(std::abs(attention.at(t, i) - mean) < 1e-6);
            QCOMPARE(rolled.at(t, i), double(rollout.at(t, i)));
        }
}

void TestTransformerAttribution::stepScoresDescribeTheDistribution()
{
    const TransformerModel model = sharpModel(true);
    const TransformerAttribution explained = attributeTransformer(model, kExplainedSentence, only({AttributionMethod::Attention}));
    const std::vector<double> logProbs = outputLogProbs(model.net(), model.vocabulary(), explained, sourceIds(model, kExplainedSentence));
    QCOMPARE(explained.steps.size(), explained.output.outputTokens.size());
    for (std::size_t t = 0; t < explained.steps.size(); ++t) {
        const StepScore &step = explained.steps[t];
        QVERIFY(std::abs(step.logProb - logProbs[t]) < 1e-5);
        // Greedy decoding took the likeliest word, so the margin to the runner-up is not negative.
        QVERIFY(step.margin >= 0);
        QVERIFY(step.runnerUp != explained.output.outputTokens[t]);
        QVERIFY(step.entropy > 0 && step.entropy <= std::log(double(model.vocabulary().size())) + 1e-9);
    }
}

void TestTransformerAttribution::oneGradientRowLeavesTheOthersEmpty()
{
    const TransformerModel model = sharpModel(true);
    AttributionOptions options = only({AttributionMethod::Saliency, AttributionMethod::IntegratedGradients});
    const TransformerAttribution all = attributeTransformer(model, kExplainedSentence, options);
    options.gradientRow = 2;
    const TransformerAttribution one = attributeTransformer(model, kExplainedSentence, options);
    QCOMPARE(one.gradientRow, 2);
    for (AttributionMethod method : {AttributionMethod::Saliency, AttributionMethod::IntegratedGradients})
        for (int t = 0; t < one.map(method)->rows; ++t)
            for (int i = 0; i < one.map(method)->columns; ++i) {
                if (t == 2)
                    QVERIFY(std::abs(one.map(method)->at(t, i) - all.map(method)->at(t, i)) < 1e-5);
                else
                    QVERIFY(std::isnan(one.map(method)->at(t, i)));
            }
    QVERIFY(std::isnan(one.completenessGap[0]) && !std::isnan(one.completenessGap[2]));
}

void TestTransformerAttribution::refusesWhatItCannotExplain()
{
    const TransformerModel model = sharpModel(true);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, attributeTransformer(model, {"red"}));
    AttributionOptions options;
    options.integrationSteps = 0;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, attributeTransformer(model, kExplainedSentence, options));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, attributeTransformer(model, kExplainedSentence, only({})));
    QVERIFY_THROWS_EXCEPTION(std::out_of_range,
                             attributeTransformer(model, std::vector<std::string>(20, "red"), only({AttributionMethod::Attention})));
    QCOMPARE(transformerAttributionMethods().back(), AttributionMethod::Rollout);
    QCOMPARE(int(transformerAttributionMethods().size()), int(allAttributionMethods().size()) + 1);
}

ATTNSCOPE_TEST(transformerattribution, TestTransformerAttribution)
#include "tst_transformerattribution.moc"
