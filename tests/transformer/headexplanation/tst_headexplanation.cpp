#include "tests/common/testregistry.h"
#include "engine/core/vocabulary.h"
#include "engine/selfattention/scaleddotproductattention.h"
#include "engine/selfattention/selfattentioninputs.h"
#include "engine/transformer/headexplanation.h"
#include "engine/transformer/transformermodel.h"
#include "engine/transformer/transformernet.h"

#include <QtTest>

#include <cmath>
#include <stdexcept>

namespace {

constexpr double kExplainTolerance = 1e-5;
constexpr int kExplainLayers = 2;
constexpr int kExplainHeads = 4;

using HeadKind = TransformerAttentionKind;

TransformerConfig headConfig(bool preNorm)
{
    TransformerConfig config;
    config.layers = kExplainLayers;
    config.heads = kExplainHeads;
    config.modelSize = 16;
    config.feedForwardSize = 24;
    config.dropout = 0;
    config.preNorm = preNorm;
    config.maxPositions = 32;
    return config;
}

Vocabulary headVocabulary()
{
    return Vocabulary({"red", "green", "blue", "fox", "cat", "dog", "runs", "sits", "the", "a"});
}

// Weights drawn wider than Xavier's, so the heads are sharp and differ from one another.
TransformerNet sharpNet(bool preNorm)
{
    torch::manual_seed(11);
    TransformerNet net(headConfig(preNorm), headVocabulary().size());
    torch::NoGradGuard noGrad;
    for (torch::Tensor &parameter : net->parameters())
        parameter.uniform_(-0.6, 0.6);
    net->eval();
    return net;
}

const LayeredAttention &shownAttentionOf(const TransformerOutput &output, HeadKind kind)
{
    return kind == HeadKind::EncoderSelf ? output.encoderSelf : kind == HeadKind::DecoderSelf ? output.decoderSelf : output.cross;
}

// The same attention from LibTorch's own pass over the sentence and its outputs (teacher forced).
std::vector<torch::Tensor> libTorchAttention(TransformerNetImpl &net, const Vocabulary &vocabulary,
                                             const TransformerOutput &output, HeadKind kind)
{
    std::vector<int64_t> source, prefix{Vocabulary::kSos};
    for (const std::string &token : output.sourceTokens)
        source.push_back(vocabulary.id(token));
    for (std::size_t t = 0; t + 1 < output.outputTokens.size(); ++t)
        prefix.push_back(vocabulary.id(output.outputTokens[t]));
    torch::NoGradGuard noGrad;
    TransformerAttention attention;
    net.forward(torch::tensor(source).view({1, -1}), torch::ones({1, int64_t(source.size())}, torch::kBool),
                torch::tensor(prefix).view({1, -1}), &attention);
    return kind == HeadKind::EncoderSelf ? attention.encoderSelf : kind == HeadKind::DecoderSelf ? attention.decoderSelf
                                                                                        : attention.cross;
}

// The layer's packed in-projection, as LibTorch's MultiheadAttention reads it.
MultiHeadAttention &attentionModule(TransformerNetImpl &net, HeadKind kind, int layer)
{
    if (kind == HeadKind::EncoderSelf)
        return net.encoderLayers[std::size_t(layer)]->as<EncoderLayerImpl>()->self_attn;
    auto *decoder = net.decoderLayers[std::size_t(layer)]->as<DecoderLayerImpl>();
    return kind == HeadKind::DecoderSelf ? decoder->self_attn : decoder->multihead_attn;
}

}  // namespace

// explainHead() against the weights decoding showed and against LibTorch's own pass; the shared
// encoder head against the explorer's arithmetic.
class TestHeadExplanation : public QObject
{
    Q_OBJECT
private slots:
    void reproducesTheShownWeights_data();
    void reproducesTheShownWeights();
    void masksTheDecodersFuture();
    void rejectsWhatIsNotThere();
    void sharedHeadGivesTheExplorerTheSameWeights_data();
    void sharedHeadGivesTheExplorerTheSameWeights();
};

void TestHeadExplanation::reproducesTheShownWeights_data()
{
    QTest::addColumn<bool>("preNorm");
    QTest::addColumn<int>("kind");
    for (bool preNorm : {true, false}) {
        const char *norm = preNorm ? "pre-LN" : "post-LN";
        QTest::addRow("%s, encoder self", norm) << preNorm << int(HeadKind::EncoderSelf);
        QTest::addRow("%s, decoder self", norm) << preNorm << int(HeadKind::DecoderSelf);
        QTest::addRow("%s, cross", norm) << preNorm << int(HeadKind::Cross);
    }
}

void TestHeadExplanation::reproducesTheShownWeights()
{
    QFETCH(bool, preNorm);
    QFETCH(int, kind);
    TransformerNet net = sharpNet(preNorm);
    const TransformerInference inference(*net);
    const Vocabulary vocabulary = headVocabulary();
    const TransformerOutput output = decodeWords(inference, vocabulary, {"the", "red", "fox", "zebra", "runs"});
    const LayeredAttention &attention = shownAttentionOf(output, HeadKind(kind));
    QVERIFY(attention.rows >= 2);
    const std::vector<torch::Tensor> reference = libTorchAttention(*net, vocabulary, output, HeadKind(kind));
    for (int layer = 0; layer < kExplainLayers; ++layer)
        for (int head : {0, 3}) {
            MultiHeadAttention &module = attentionModule(*net, HeadKind(kind), layer);
            const int dK = module->headSize();
            for (int query : {0, attention.rows - 1})
                for (int key = 0; key < attention.columns; ++key) {
                    const HeadExplanation e =
                        explainHead(inference, vocabulary, output, HeadKind(kind), layer, head, query, key);
                    QCOMPARE(e.modelSize, 16);
                    QCOMPARE(e.preNorm, preNorm);
                    QCOMPARE(int(e.attention.q.size()), dK);
                    // The weight decoding showed, and LibTorch's from its own pass.
                    const float expected = attention.weights[std::size_t(layer)][std::size_t(head)]
                                                            [std::size_t(query * attention.columns + key)];
                    QVERIFY2(std::abs(e.attention.weight() - expected) < kExplainTolerance,
                             qPrintable(QStringLiteral("layer %1 head %2 cell (%3, %4): %5 against %6")
                                            .arg(layer).arg(head).arg(query).arg(key)
                                            .arg(e.attention.weight()).arg(expected)));
                    QVERIFY(std::abs(e.attention.weight() - reference[std::size_t(layer)][0][head][query][key].item<double>()) <
                            kExplainTolerance);
                    double sum = 0;
                    for (double w : e.attention.weights)
                        sum += w;
                    QVERIFY(std::abs(sum - 1.0) < 1e-12);
                    // q_i = x_i W_Q^h + b_Q^h with LibTorch's packed rows, and the score by hand.
                    const torch::Tensor x = torch::tensor(e.queryInput, torch::kDouble);
                    const torch::Tensor w = module->inProjWeight.narrow(0, head * dK, dK).to(torch::kDouble);
                    const torch::Tensor b = module->inProjBias.narrow(0, head * dK, dK).to(torch::kDouble);
                    const torch::Tensor q = torch::matmul(w, x) + b;
                    for (int m = 0; m < dK; ++m)
                        QVERIFY(std::abs(q[m].item<double>() - e.attention.q[std::size_t(m)]) < kExplainTolerance);
                    QVERIFY(std::abs(e.attention.score() - e.attention.dot / std::sqrt(double(dK))) < 1e-12);
                    for (int m = 0; m < dK; ++m)
                        QVERIFY(std::abs(e.attention.share[std::size_t(m)] -
                                         e.attention.weight() * e.attention.value[std::size_t(m)]) < 1e-12);
                }
        }
}

void TestHeadExplanation::masksTheDecodersFuture()
{
    TransformerNet net = sharpNet(true);
    const TransformerInference inference(*net);
    const Vocabulary vocabulary = headVocabulary();
    const TransformerOutput output = decodeWords(inference, vocabulary, {"a", "blue", "dog", "sits"});
    const int steps = output.decoderSelf.rows;
    QVERIFY(steps >= 3);
    for (int query = 0; query < steps; ++query) {
        const HeadExplanation e = explainHead(inference, vocabulary, output, HeadKind::DecoderSelf, 1, 2, query, steps - 1);
        QCOMPARE(e.attention.visibleKeys, query + 1);
        QCOMPARE(e.attention.masked(), query < steps - 1);
        for (int key = query + 1; key < steps; ++key)
            QCOMPARE(e.attention.weights[std::size_t(key)], 0.0);
        if (e.attention.masked())
            QCOMPARE(e.attention.weight(), 0.0);
    }
}

void TestHeadExplanation::rejectsWhatIsNotThere()
{
    TransformerNet net = sharpNet(true);
    const TransformerInference inference(*net);
    const Vocabulary vocabulary = headVocabulary();
    const TransformerOutput output = decodeWords(inference, vocabulary, {"the", "cat"});
    const int sourceLength = int(output.sourceTokens.size());
    const int steps = int(output.outputTokens.size());
    const auto rejects = [&](HeadKind kind, int layer, int head, int query, int key, const QString &says) {
        try {
            explainHead(inference, vocabulary, output, kind, layer, head, query, key);
        } catch (const std::invalid_argument &error) {
            QVERIFY2(QString::fromUtf8(error.what()).contains(says), error.what());
            return;
        }
        QFAIL(qPrintable(QStringLiteral("no exception for %1, %2").arg(query).arg(key)));
    };
    rejects(HeadKind::EncoderSelf, 0, 0, sourceLength, 0, QStringLiteral("no cell"));
    rejects(HeadKind::EncoderSelf, 0, 0, 0, -1, QStringLiteral("no cell"));
    rejects(HeadKind::Cross, 1, 1, steps, 0, QStringLiteral("no cell"));
    rejects(HeadKind::Cross, 1, 1, 0, sourceLength, QStringLiteral("no cell"));
    rejects(HeadKind::DecoderSelf, 0, 0, 0, steps, QStringLiteral("no cell"));
    rejects(HeadKind::DecoderSelf, kExplainLayers, 0, 0, 0, QStringLiteral("no head 1 in layer 3"));
    rejects(HeadKind::Cross, 0, kExplainHeads, 0, 0, QStringLiteral("no head 5 in layer 1"));
    TransformerOutput cut = output;
    cut.sourceTokens.pop_back();
    try {
        explainHead(inference, vocabulary, cut, HeadKind::EncoderSelf, 0, 0, 0, 0);
        QFAIL("a source without <EOS> was explained");
    } catch (const std::invalid_argument &error) {
        QVERIFY2(QString::fromUtf8(error.what()).contains(QStringLiteral("<EOS>")), error.what());
    }
}

void TestHeadExplanation::sharedHeadGivesTheExplorerTheSameWeights_data()
{
    QTest::addColumn<bool>("preNorm");
    QTest::newRow("pre-LN") << true;
    QTest::newRow("post-LN") << false;
}

void TestHeadExplanation::sharedHeadGivesTheExplorerTheSameWeights()
{
    QFETCH(bool, preNorm);
    TransformerNet net = sharpNet(preNorm);
    const TransformerInference inference(*net);
    const Vocabulary vocabulary = headVocabulary();
    const TransformerOutput output = decodeWords(inference, vocabulary, {"the", "green", "cat", "sits"});
    const int n = output.encoderSelf.rows;
    for (int layer = 0; layer < kExplainLayers; ++layer)
        for (int head = 0; head < kExplainHeads; ++head) {
            const AttentionHead shared = encoderSelfAttentionHead(inference, vocabulary, output, layer, head);
            QCOMPARE(shared.tokens, output.sourceTokens);
            const SelfAttentionInputs inputs = SelfAttentionInputs::fromHead(shared);
            QCOMPARE(inputs.x.columns, 17);  // d_model and the column of 1s the biases ride on
            QCOMPARE(inputs.wq.rows, 17);
            const ScaledDotProductAttention a = ScaledDotProductAttention::compute(inputs.x, inputs.wq, inputs.wk, inputs.wv);
            const std::vector<float> &expected = output.encoderSelf.weights[std::size_t(layer)][std::size_t(head)];
            for (int i = 0; i < n; ++i)
                for (int j = 0; j < n; ++j)
                    QVERIFY2(std::abs(a.weights.at(i, j) - double(expected[std::size_t(i * n + j)])) < kExplainTolerance,
                             qPrintable(QStringLiteral("layer %1 head %2 (%3, %4)").arg(layer).arg(head).arg(i).arg(j)));
        }
    AttentionHead broken = encoderSelfAttentionHead(inference, vocabulary, output, 0, 0);
    broken.projections.bk.pop_back();
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, SelfAttentionInputs::fromHead(broken));
}

ATTNSCOPE_TEST(headexplanation, TestHeadExplanation)
#include "tst_headexplanation.moc"
