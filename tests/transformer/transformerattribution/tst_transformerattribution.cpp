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

// log P over the vocabulary at every step of `explained`'s output, teacher-forced, for `source`
// (ids, <EOS> last): LibTorch's own pass over `net`, (T, V) in double.
torch::Tensor outputLogDistributions(TransformerNetImpl &net, const Vocabulary &vocabulary,
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
    return torch::log_softmax(logits[0].to(torch::kDouble), 1);
}

// log P(y_t) of `explained`'s output at every step, as above.
std::vector<double> outputLogProbs(TransformerNetImpl &net, const Vocabulary &vocabulary,
                                   const TransformerAttribution &explained, const std::vector<int64_t> &source)
{
    const torch::Tensor logP = outputLogDistributions(net, vocabulary, explained, source);
    std::vector<double> result;
    for (std::size_t t = 0; t < explained.output.outputTokens.size(); ++t)
        result.push_back(logP[int64_t(t)][vocabulary.id(explained.output.outputTokens[t])].item<double>());
    return result;
}

// log P(y_row) - log P(alternative) at step `row` of `explained`'s output, as above.
double logProbDifference(TransformerNetImpl &net, const Vocabulary &vocabulary, const TransformerAttribution &explained,
                         const std::vector<int64_t> &source, int row, const std::string &alternative)
{
    const torch::Tensor logP = outputLogDistributions(net, vocabulary, explained, source)[row];
    return logP[vocabulary.id(explained.output.outputTokens[std::size_t(row)])].item<double>() -
           logP[vocabulary.id(alternative)].item<double>();
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
    void contrastiveInputTimesGradientIsTheDerivativeOfTheDifference_data();
    void contrastiveInputTimesGradientIsTheDerivativeOfTheDifference();
    void contrastiveIntegratedGradientsAddUpToTheChangeOfTheDifference();
    void contrastiveOcclusionIsTheFallOfTheDifference_data();
    void contrastiveOcclusionIsTheFallOfTheDifference();
    void contrastKeepsAttentionAndRolloutAsTheyAre();
    void contrastRefusesWhatItCannotCompare();
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

void TestTransformerAttribution::contrastiveInputTimesGradientIsTheDerivativeOfTheDifference_data()
{
    QTest::addColumn<bool>("preNorm");
    QTest::addColumn<int>("row");
    QTest::newRow("pre-LN, first word") << true << 0;
    QTest::newRow("post-LN, third word") << false << 2;
}

// As for f_t alone: e_i . df/de_i for f = log P(y_row) - log P(alternative) is a central difference
// of that f in double precision, scaling word i's row of the embedding table.
void TestTransformerAttribution::contrastiveInputTimesGradientIsTheDerivativeOfTheDifference()
{
    QFETCH(bool, preNorm);
    QFETCH(int, row);
    const TransformerModel model = sharpModel(preNorm);
    const AttributionOptions options = only({AttributionMethod::InputTimesGradient, AttributionMethod::Saliency});
    const TransformerAttribution explained = attributeTransformer(model, kExplainedSentence, options);
    QVERIFY(row < int(explained.output.outputTokens.size()));
    const std::string alternative = explained.steps[std::size_t(row)].runnerUp;
    const ContrastiveAttribution contrast = attributeTransformerContrast(model, explained, row, alternative, options);
    QCOMPARE(contrast.row, row);
    QCOMPARE(contrast.alternative, alternative);
    QCOMPARE(int(contrast.maps.size()), 2);
    const AttributionMap &inputTimesGradient = contrast.maps[0];
    QCOMPARE(inputTimesGradient.method, AttributionMethod::InputTimesGradient);
    QCOMPARE(inputTimesGradient.rows, 1);
    QCOMPARE(inputTimesGradient.columns, int(kExplainedSentence.size()));
    const std::vector<int64_t> source = sourceIds(model, kExplainedSentence);
    TransformerNet twin = doubleTwin(model);
    const double f = logProbDifference(*twin, model.vocabulary(), explained, source, row, alternative);
    // The runner-up is the other word closest to y_row, so the difference is the step's margin.
    QVERIFY(std::abs(contrast.logProbDifference - f) < 1e-4);
    QVERIFY(std::abs(contrast.logProbDifference - explained.steps[std::size_t(row)].margin) < 1e-4);
    constexpr double kStep = 1e-5;
    bool differs = false;  // from the explanation of log P(y_row) alone
    for (int i = 0; i < int(kExplainedSentence.size()); ++i) {
        torch::Tensor embedding = twin->sourceEmbedding->weight[source[std::size_t(i)]];
        const torch::Tensor original = embedding.detach().clone();
        double up = 0, down = 0;
        {
            torch::NoGradGuard noGrad;
            embedding.copy_(original * (1 + kStep));
            up = logProbDifference(*twin, model.vocabulary(), explained, source, row, alternative);
            embedding.copy_(original * (1 - kStep));
            down = logProbDifference(*twin, model.vocabulary(), explained, source, row, alternative);
            embedding.copy_(original);
        }
        const double difference = (up - down) / (2 * kStep);
        QVERIFY2(std::abs(inputTimesGradient.at(0, i) - difference) <= 1e-4 * std::abs(difference) + 1e-7,
                 qPrintable(QStringLiteral("word %1: %2 against %3")
                                .arg(QString::number(i), QString::number(inputTimesGradient.at(0, i)),
                                     QString::number(difference))));
        QVERIFY(std::abs(inputTimesGradient.at(0, i)) <= contrast.maps[1].at(0, i) * original.norm().item<double>() * 1.0001);
        differs |= std::abs(inputTimesGradient.at(0, i) - explained.map(AttributionMethod::InputTimesGradient)->at(row, i)) > 1e-3;
    }
    QVERIFY(differs);
}

// Completeness for the difference: the contrastive IG scores add up to f(x) - f(x'), f(x') read with
// the sentence's rows of the embedding table zeroed (its words are all different; <EOS> stays).
void TestTransformerAttribution::contrastiveIntegratedGradientsAddUpToTheChangeOfTheDifference()
{
    const TransformerModel model = sharpModel(true);
    const AttributionOptions options = only({AttributionMethod::IntegratedGradients});
    const TransformerAttribution explained = attributeTransformer(model, kExplainedSentence, options);
    const int row = 1;
    const std::string alternative = "dog";
    QVERIFY(explained.output.outputTokens[std::size_t(row)] != alternative);
    const ContrastiveAttribution contrast = attributeTransformerContrast(model, explained, row, alternative, options);
    const std::vector<double> ig = contrast.maps.at(0).row(0);
    const double sum = std::accumulate(ig.begin(), ig.end(), 0.0);
    const std::vector<int64_t> source = sourceIds(model, kExplainedSentence);
    TransformerNet twin = doubleTwin(model);
    const double atInput = logProbDifference(*twin, model.vocabulary(), explained, source, row, alternative);
    {
        torch::NoGradGuard noGrad;
        for (std::size_t i = 0; i < kExplainedSentence.size(); ++i)
            twin->sourceEmbedding->weight[source[i]].zero_();
    }
    const double atBaseline = logProbDifference(*twin, model.vocabulary(), explained, source, row, alternative);
    const double change = atInput - atBaseline;
    QVERIFY2(std::abs(sum - change) <= 0.01 * std::abs(change) + 2e-3,
             qPrintable(QStringLiteral("sum %1 for a change of %2").arg(QString::number(sum), QString::number(change))));
}

void TestTransformerAttribution::contrastiveOcclusionIsTheFallOfTheDifference_data()
{
    occlusionIsTheFallWithTheWordLeftOut_data();
}

// Two teacher-forced scores of the difference: with the whole sentence and with word i taken out.
void TestTransformerAttribution::contrastiveOcclusionIsTheFallOfTheDifference()
{
    QFETCH(int, mode);
    const TransformerModel model = sharpModel(true);
    AttributionOptions options = only({AttributionMethod::Occlusion});
    options.occlusion = RemovalMode(mode);
    const TransformerAttribution explained = attributeTransformer(model, kExplainedSentence, options);
    const int row = int(explained.output.outputTokens.size()) - 1;
    const std::string alternative = "cat";
    QVERIFY(explained.output.outputTokens[std::size_t(row)] != alternative);
    const ContrastiveAttribution contrast = attributeTransformerContrast(model, explained, row, alternative, options);
    const AttributionMap &occlusion = contrast.maps.at(0);
    QCOMPARE(occlusion.method, AttributionMethod::Occlusion);
    TransformerNetImpl &net = model.net();
    const double whole =
        logProbDifference(net, model.vocabulary(), explained, sourceIds(model, kExplainedSentence), row, alternative);
    QVERIFY(std::abs(contrast.logProbDifference - whole) < 1e-4);
    for (std::size_t i = 0; i < kExplainedSentence.size(); ++i) {
        const std::vector<int64_t> without = sourceIds(model, removeWord(kExplainedSentence, i, RemovalMode(mode)));
        const double fall = whole - logProbDifference(net, model.vocabulary(), explained, without, row, alternative);
        QVERIFY2(std::abs(occlusion.at(0, int(i)) - fall) < 1e-4,
                 qPrintable(QStringLiteral("word %1: %2 against %3")
                                .arg(QString::number(i), QString::number(occlusion.at(0, int(i))), QString::number(fall))));
    }
}

void TestTransformerAttribution::contrastKeepsAttentionAndRolloutAsTheyAre()
{
    const TransformerModel model = sharpModel(true);
    const AttributionOptions options = only({AttributionMethod::Rollout, AttributionMethod::Attention});
    const TransformerAttribution explained = attributeTransformer(model, kExplainedSentence, options);
    const ContrastiveAttribution contrast = attributeTransformerContrast(model, explained, 1, "<EOS>", options);
    QCOMPARE(int(contrast.maps.size()), 2);
    for (std::size_t k = 0; k < contrast.maps.size(); ++k) {
        QCOMPARE(contrast.maps[k].method, explained.maps[k].method);
        QCOMPARE(contrast.maps[k].row(0), explained.maps[k].row(1));
    }
}

void TestTransformerAttribution::contrastRefusesWhatItCannotCompare()
{
    const TransformerModel model = sharpModel(true);
    const AttributionOptions options = only({AttributionMethod::Saliency, AttributionMethod::Occlusion});
    const TransformerAttribution explained = attributeTransformer(model, kExplainedSentence, options);
    const int rows = int(explained.output.outputTokens.size());
    const std::string wrote = explained.output.outputTokens[0];
    const std::string other = wrote == "red" ? "green" : "red";
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, attributeTransformerContrast(model, explained, -1, other, options));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, attributeTransformerContrast(model, explained, rows, other, options));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, attributeTransformerContrast(model, explained, 0, wrote, options));
    for (const char *word : {"zebra", "<PAD>", "<SOS>"})
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, attributeTransformerContrast(model, explained, 0, word, options));
    AttributionOptions noSteps = options;
    noSteps.integrationSteps = 0;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, attributeTransformerContrast(model, explained, 0, other, noSteps));
    try {
        attributeTransformerContrast(model, explained, 0, "zebra", options);
    } catch (const std::invalid_argument &error) {
        QVERIFY2(QString::fromUtf8(error.what()).contains(QStringLiteral("'zebra'")), error.what());
    }
    QCOMPARE(int(attributeTransformerContrast(model, explained, 0, other, options).maps.size()), 2);
}

ATTNSCOPE_TEST(transformerattribution, TestTransformerAttribution)
#include "tst_transformerattribution.moc"
