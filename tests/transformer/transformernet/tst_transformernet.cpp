#include "tests/common/testregistry.h"
#include "engine/core/vocabulary.h"
#include "engine/transformer/greedydecoding.h"
#include "engine/transformer/transformerinference.h"
#include "engine/transformer/transformernet.h"

#include <QtTest>

#include <cmath>
#include <functional>
#include <limits>

namespace {

constexpr int kWidth = 16;
constexpr int kHeads = 4;
constexpr int kFeedForward = 24;
constexpr double kTolerance = 1e-5;

// Gives `target` every parameter of `source` that has its name (the two share LibTorch's names).
void copyParameters(torch::nn::Module &source, torch::nn::Module &target)
{
    torch::NoGradGuard noGrad;
    const auto from = source.named_parameters();
    for (auto &item : target.named_parameters()) {
        const torch::Tensor *value = from.find(item.key());
        QVERIFY2(value, qPrintable(QString::fromStdString("no parameter " + item.key())));
        item.value().copy_(*value);
    }
}

void randomise(torch::nn::Module &module)
{
    torch::NoGradGuard noGrad;
    for (torch::Tensor &parameter : module.parameters())
        parameter.uniform_(-0.5, 0.5);
}

double largestDifference(const torch::Tensor &a, const torch::Tensor &b)
{
    return (a - b).abs().max().item<double>();
}

// Each parameter's gradient in `ours` against the one of the same name in `theirs`.
void compareGradients(torch::nn::Module &ours, torch::nn::Module &theirs)
{
    const auto reference = theirs.named_parameters();
    for (const auto &item : ours.named_parameters()) {
        const torch::Tensor *other = reference.find(item.key());
        QVERIFY(other);
        QVERIFY2(item.value().grad().defined(), qPrintable(QString::fromStdString(item.key())));
        QVERIFY2(largestDifference(item.value().grad(), other->grad()) < kTolerance,
                 qPrintable(QString::fromStdString(item.key())));
    }
}

// (B, S) true on real tokens: the second sentence is two tokens shorter.
torch::Tensor sourceMask(int64_t batch, int64_t length)
{
    torch::Tensor mask = torch::ones({batch, length}, torch::kBool);
    mask[1].narrow(0, length - 2, 2).fill_(false);
    return mask;
}

TransformerConfig smallConfig(bool preNorm, PositionEncoding positions = PositionEncoding::Sinusoidal)
{
    TransformerConfig config;
    config.layers = 2;
    config.heads = kHeads;
    config.modelSize = kWidth;
    config.feedForwardSize = kFeedForward;
    config.dropout = 0;
    config.preNorm = preNorm;
    config.positions = positions;
    config.maxPositions = 32;
    return config;
}

// Source and target ids (no <PAD> in the target), the source's second sentence padded.
struct Sentences {
    torch::Tensor source = torch::randint(4, 20, {2, 7}, torch::kInt64);
    torch::Tensor mask = sourceMask(2, 7);
    torch::Tensor target = torch::randint(4, 20, {2, 5}, torch::kInt64);
    Sentences() { source.masked_fill_(mask.logical_not(), int64_t(Vocabulary::kPad)); }
};

}  // namespace

// Every layer against LibTorch's TransformerEncoderLayer/TransformerDecoderLayer with the same
// weights (post-LN as they are, pre-LN from their own sublayers), forwards and gradients; what the
// masks promise; and cached greedy decoding against one teacher-forced pass over its output.
class TestTransformerNet : public QObject
{
    Q_OBJECT
private slots:
    void init() { torch::manual_seed(7); }
    void encoderLayerMatchesLibTorch_data();
    void encoderLayerMatchesLibTorch();
    void decoderLayerMatchesLibTorch_data();
    void decoderLayerMatchesLibTorch();
    void laterTargetsCannotChangeEarlierOutputs();
    void paddingGetsExactlyZeroWeight();
    void cachedDecodingEqualsTeacherForcedPass_data();
    void cachedDecodingEqualsTeacherForcedPass();
    void handWrittenDecodingEqualsLibTorch_data();
    void handWrittenDecodingEqualsLibTorch();
    void sinusoidalPositionsAreTheFormula();
    void defaultSizeIsTheReferences();
    void badShapesAreRefusedClearly();
};

void TestTransformerNet::encoderLayerMatchesLibTorch_data()
{
    QTest::addColumn<bool>("preNorm");
    QTest::newRow("post-LN") << false;
    QTest::newRow("pre-LN") << true;
}

void TestTransformerNet::encoderLayerMatchesLibTorch()
{
    QFETCH(bool, preNorm);
    EncoderLayer ours(kWidth, kHeads, kFeedForward, /*dropout=*/0, preNorm);
    randomise(*ours);
    torch::nn::TransformerEncoderLayer theirs(
        torch::nn::TransformerEncoderLayerOptions(kWidth, kHeads).dim_feedforward(kFeedForward).dropout(0));
    copyParameters(*ours, *theirs);

    const torch::Tensor mask = sourceMask(2, 6);
    const torch::Tensor x = torch::randn({2, 6, kWidth}).requires_grad_(true);
    const torch::Tensor xTheirs = x.detach().clone().requires_grad_(true);
    auto [out, weights] = ours->forward(x, paddingMaskBias(mask));

    // LibTorch's layers are sequence-first and post-LN; pre-LN is composed from their sublayers.
    const torch::Tensor padding = mask.logical_not();
    torch::Tensor expected, expectedWeights;
    if (!preNorm) {
        expected = theirs->forward(xTheirs.transpose(0, 1), {}, padding).transpose(0, 1);
        const torch::Tensor seqFirst = xTheirs.transpose(0, 1);
        expectedWeights = std::get<1>(theirs->self_attn(seqFirst, seqFirst, seqFirst, padding));
    } else {
        const torch::Tensor normed = theirs->norm1(xTheirs).transpose(0, 1);
        auto [attended, attentionWeights] = theirs->self_attn(normed, normed, normed, padding);
        const torch::Tensor y = xTheirs + attended.transpose(0, 1);
        expected = y + theirs->linear2(torch::relu(theirs->linear1(theirs->norm2(y))));
        expectedWeights = attentionWeights;
    }
    QVERIFY(largestDifference(out, expected) < kTolerance);
    // LibTorch gives the heads' mean.
    QVERIFY(largestDifference(weights.mean(1), expectedWeights) < kTolerance);

    const torch::Tensor probe = torch::randn(out.sizes());
    (out * probe).sum().backward();
    (expected * probe).sum().backward();
    QVERIFY(largestDifference(x.grad(), xTheirs.grad()) < kTolerance);
    compareGradients(*ours, *theirs);
}

void TestTransformerNet::decoderLayerMatchesLibTorch_data()
{
    encoderLayerMatchesLibTorch_data();
}

void TestTransformerNet::decoderLayerMatchesLibTorch()
{
    QFETCH(bool, preNorm);
    DecoderLayer ours(kWidth, kHeads, kFeedForward, /*dropout=*/0, preNorm);
    randomise(*ours);
    torch::nn::TransformerDecoderLayer theirs(
        torch::nn::TransformerDecoderLayerOptions(kWidth, kHeads).dim_feedforward(kFeedForward).dropout(0));
    copyParameters(*ours, *theirs);

    const torch::Tensor mask = sourceMask(2, 6);
    const torch::Tensor x = torch::randn({2, 5, kWidth}).requires_grad_(true);
    const torch::Tensor memory = torch::randn({2, 6, kWidth}).requires_grad_(true);
    const torch::Tensor xTheirs = x.detach().clone().requires_grad_(true);
    const torch::Tensor memoryTheirs = memory.detach().clone().requires_grad_(true);
    const torch::Tensor causal = causalMaskBias(5);
    const DecoderLayerOutput out = ours->forward(x, memory, causal, paddingMaskBias(mask));

    const torch::Tensor padding = mask.logical_not();
    const torch::Tensor memorySeqFirst = memoryTheirs.transpose(0, 1);
    torch::Tensor expected;
    if (!preNorm) {
        expected = theirs->forward(xTheirs.transpose(0, 1), memorySeqFirst, causal, {}, {}, padding).transpose(0, 1);
    } else {
        const torch::Tensor normed = theirs->norm1(xTheirs).transpose(0, 1);
        const torch::Tensor attended =
            std::get<0>(theirs->self_attn->forward(normed, normed, normed, torch::Tensor(), true, causal));
        const torch::Tensor y = xTheirs + attended.transpose(0, 1);
        const torch::Tensor crossed = std::get<0>(
            theirs->multihead_attn(theirs->norm2(y).transpose(0, 1), memorySeqFirst, memorySeqFirst, padding));
        const torch::Tensor z = y + crossed.transpose(0, 1);
        expected = z + theirs->linear2(torch::relu(theirs->linear1(theirs->norm3(z))));
    }
    QVERIFY(largestDifference(out.output, expected) < kTolerance);

    const torch::Tensor probe = torch::randn(out.output.sizes());
    (out.output * probe).sum().backward();
    (expected * probe).sum().backward();
    QVERIFY(largestDifference(x.grad(), xTheirs.grad()) < kTolerance);
    QVERIFY(largestDifference(memory.grad(), memoryTheirs.grad()) < kTolerance);
    compareGradients(*ours, *theirs);
}

void TestTransformerNet::laterTargetsCannotChangeEarlierOutputs()
{
    TransformerNet net(smallConfig(true), 20);
    net->eval();
    Sentences s;
    const torch::Tensor before = net->forward(s.source, s.mask, s.target);
    torch::Tensor changed = s.target.clone();
    changed.narrow(1, 3, 2).random_(4, 20);
    changed[0][3] = (s.target[0][3].item<int64_t>() - 3) % 16 + 4;  // position 3 surely differs
    const torch::Tensor after = net->forward(s.source, s.mask, changed);
    QCOMPARE(largestDifference(before.narrow(1, 0, 3), after.narrow(1, 0, 3)), 0.0);
    QVERIFY(largestDifference(before.narrow(1, 3, 2), after.narrow(1, 3, 2)) > 1e-4);
}

void TestTransformerNet::paddingGetsExactlyZeroWeight()
{
    TransformerNet net(smallConfig(false), 20);
    net->eval();
    Sentences s;
    TransformerAttention attention;
    const torch::Tensor logits = net->forward(s.source, s.mask, s.target, &attention);
    for (const auto *layers : {&attention.encoderSelf, &attention.cross})
        for (const torch::Tensor &weights : *layers) {
            QCOMPARE(weights[1].narrow(-1, 5, 2).abs().max().item<double>(), 0.0);
            QVERIFY(largestDifference(weights.sum(-1), torch::ones({})) < kTolerance);
        }
    // What the padding holds changes nothing.
    torch::Tensor otherPadding = s.source.clone();
    otherPadding[1].narrow(0, 5, 2).fill_(9);
    QCOMPARE(largestDifference(net->forward(otherPadding, s.mask, s.target), logits), 0.0);
}

void TestTransformerNet::cachedDecodingEqualsTeacherForcedPass_data()
{
    QTest::addColumn<bool>("preNorm");
    QTest::addColumn<bool>("learned");
    QTest::newRow("pre-LN, sinusoidal") << true << false;
    QTest::newRow("post-LN, learned") << false << true;
}

void TestTransformerNet::cachedDecodingEqualsTeacherForcedPass()
{
    QFETCH(bool, preNorm);
    QFETCH(bool, learned);
    TransformerNet net(smallConfig(preNorm, learned ? PositionEncoding::Learned : PositionEncoding::Sinusoidal), 20);
    net->eval();
    Sentences s;
    constexpr int kSteps = 9;
    const GreedyDecoding decoded = greedyDecode(*net, s.source, s.mask, kSteps, /*recordAttention=*/true);
    // An untrained model rarely says <EOS>; the steps run to the end.
    QCOMPARE(decoded.tokens.size(1), int64_t(kSteps));

    // Without the cache: the whole prefix again, in one pass; its argmax must be the decoded tokens.
    torch::NoGradGuard noGrad;
    const torch::Tensor prefix = torch::cat(
        {torch::full({2, 1}, int64_t(Vocabulary::kSos)), decoded.tokens.narrow(1, 0, kSteps - 1)}, 1);
    TransformerAttention full;
    const torch::Tensor logits = net->forward(s.source, s.mask, prefix, &full);
    QVERIFY(torch::equal(logits.argmax(-1), decoded.tokens));
    for (int layer = 0; layer < 2; ++layer) {
        QVERIFY(largestDifference(decoded.attention.encoderSelf[layer], full.encoderSelf[layer]) < kTolerance);
        QVERIFY(largestDifference(decoded.attention.decoderSelf[layer], full.decoderSelf[layer]) < kTolerance);
        QVERIFY(largestDifference(decoded.attention.cross[layer], full.cross[layer]) < kTolerance);
    }
}

void TestTransformerNet::handWrittenDecodingEqualsLibTorch_data()
{
    cachedDecodingEqualsTeacherForcedPass_data();
}

void TestTransformerNet::handWrittenDecodingEqualsLibTorch()
{
    QFETCH(bool, preNorm);
    QFETCH(bool, learned);
    TransformerNet net(smallConfig(preNorm, learned ? PositionEncoding::Learned : PositionEncoding::Sinusoidal), 20);
    randomise(*net);
    net->eval();
    const TransformerInference inference(*net);
    for (const std::vector<int> &sentence : {std::vector<int>{5, 9, 12, 2}, std::vector<int>{17, 4, 4, 8, 11, 6, 2}}) {
        const auto length = int64_t(sentence.size());
        const torch::Tensor source = torch::tensor(std::vector<int64_t>(sentence.begin(), sentence.end())).view({1, length});
        const GreedyDecoding expected = greedyDecode(*net, source, torch::ones({1, length}, torch::kBool), 9, true);
        const DecodedIds decoded = inference.decode(sentence, 9, true);
        std::vector<int> expectedIds;
        for (int64_t i = 0; i < expected.tokens.size(1); ++i)
            expectedIds.push_back(int(expected.tokens[0][i].item<int64_t>()));
        QCOMPARE(decoded.output, expectedIds);
        const auto steps = int64_t(expectedIds.size());
        const auto compare = [&](const LayeredAttention &ours, const std::vector<torch::Tensor> &theirs) {
            QCOMPARE(ours.weights.size(), theirs.size());
            for (std::size_t layer = 0; layer < theirs.size(); ++layer) {
                const torch::Tensor reference = theirs[layer][0];  // (h, rows, columns)
                QCOMPARE(int64_t(ours.rows), reference.size(1));
                QCOMPARE(int64_t(ours.columns), reference.size(2));
                for (int64_t head = 0; head < reference.size(0); ++head) {
                    const torch::Tensor mine = torch::tensor(ours.weights[layer][std::size_t(head)])
                                                   .view({reference.size(1), reference.size(2)});
                    QVERIFY(largestDifference(mine, reference[head]) < kTolerance);
                }
            }
        };
        compare(decoded.encoderSelf, expected.attention.encoderSelf);
        compare(decoded.decoderSelf, expected.attention.decoderSelf);
        compare(decoded.cross, expected.attention.cross);
        QCOMPARE(decoded.output.size(), std::size_t(steps));
    }
}

void TestTransformerNet::sinusoidalPositionsAreTheFormula()
{
    const torch::Tensor encoding = sinusoidalEncoding(50, 8);
    for (int position : {0, 1, 7, 49})
        for (int i = 0; i < 4; ++i) {
            const double angle = position / std::pow(10000.0, 2.0 * i / 8);
            QVERIFY(std::abs(encoding[position][2 * i].item<double>() - std::sin(angle)) < 1e-5);
            QVERIFY(std::abs(encoding[position][2 * i + 1].item<double>() - std::cos(angle)) < 1e-5);
        }
}

void TestTransformerNet::defaultSizeIsTheReferences()
{
    // transformer_reference.py's nn.Transformer on 34 words and 4 specials: by hand, two embeddings
    // 2 * 38 * 128, per encoder layer 4 * 128^2 + 4 * 128 (attention) + 2 * 128 * 512 + 512 + 128
    // (feed-forward) + 2 * 256 (norms), per decoder layer one attention and one norm more, the two
    // final norms and the output 128 * 38 + 38.
    TransformerNet net(TransformerConfig{}, 38);
    int64_t count = 0;
    for (const torch::Tensor &parameter : net->parameters())
        count += parameter.numel();
    const int64_t attention = 4 * 128 * 128 + 4 * 128;
    const int64_t feedForward = 2 * 128 * 512 + 512 + 128;
    const int64_t encoderLayer = attention + feedForward + 2 * 256;
    const int64_t decoderLayer = 2 * attention + feedForward + 3 * 256;
    QCOMPARE(count, 2 * 38 * 128 + 2 * encoderLayer + 2 * decoderLayer + 2 * 256 + 128 * 38 + 38);
    QCOMPARE(count, int64_t(940838));
}

void TestTransformerNet::badShapesAreRefusedClearly()
{
    TransformerConfig config = smallConfig(true);
    config.heads = 3;
    QVERIFY(QString::fromStdString(validate(config)).contains(QStringLiteral("multiple of the number of heads")));
    try {
        TransformerNet net(config, 20);
        QFAIL("a width of 16 split over 3 heads was accepted");
    } catch (const std::invalid_argument &error) {
        QVERIFY(QString::fromUtf8(error.what()).contains(QStringLiteral("heads")));
    }
    TransformerNet net(smallConfig(true), 20);
    const torch::Tensor tooLong = torch::full({1, 40}, int64_t(5));
    try {
        net->forward(tooLong, torch::ones({1, 40}, torch::kBool), tooLong.narrow(1, 0, 3));
        QFAIL("a source longer than the positions was accepted");
    } catch (const std::out_of_range &error) {
        QVERIFY(QString::fromUtf8(error.what()).contains(QStringLiteral("longest sequence")));
    }
}

ATTNSCOPE_TEST(transformernet, TestTransformerNet)
#include "tst_transformernet.moc"
