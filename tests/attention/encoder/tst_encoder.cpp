#include "tests/common/testregistry.h"
#include "engine/attention/encoder.h"
#include "engine/attention/encodertape.h"
#include "engine/core/batch.h"
#include "engine/core/dropoutstream.h"
#include "tests/common/referencenet.h"

#include <QtTest>

namespace {

ModelConfig smallConfig(bool bidirectional, int layers, RecurrentCell cell)
{
    ModelConfig config;
    config.cell = cell;
    config.embedSize = 12;
    config.hiddenSize = 16;
    config.layers = layers;
    config.bidirectional = bidirectional;
    return config;
}

}

// Padding never reaches a hidden state: a sentence encodes the same alone and in a batch, and the
// hand-written loop gives what torch::nn::GRU (RNN, LSTM) gives on packed sequences, forwards and
// backwards.
class TestEncoder : public QObject
{
    Q_OBJECT
private slots:
    void sameAloneAndInPaddedBatch_data();
    void sameAloneAndInPaddedBatch();
    void trainingMatchesPackedModule_data();
    void trainingMatchesPackedModule();
    void tapeMatchesTheModuleForManyCotangents_data();
    void tapeMatchesTheModuleForManyCotangents();
    void tapeTakesOnlyGruInEvalMode();
    void dropoutMasksAreTheStreamsDraws();
};

void TestEncoder::sameAloneAndInPaddedBatch_data()
{
    QTest::addColumn<bool>("bidirectional");
    QTest::addColumn<int>("layers");
    QTest::addColumn<int>("cell");
    for (const RecurrentCell cell : {RecurrentCell::Gru, RecurrentCell::Rnn, RecurrentCell::Lstm}) {
        QTest::addRow("%s, bidirectional, 2 layers", cellName(cell)) << true << 2 << int(cell);
        QTest::addRow("%s, unidirectional, 1 layer", cellName(cell)) << false << 1 << int(cell);
    }
}

void TestEncoder::sameAloneAndInPaddedBatch()
{
    QFETCH(bool, bidirectional);
    QFETCH(int, layers);
    QFETCH(int, cell);
    torch::manual_seed(11);
    Encoder encoder(20, smallConfig(bidirectional, layers, RecurrentCell(cell)));
    encoder->eval();
    torch::NoGradGuard noGrad;

    const std::vector<std::vector<int>> sentences = {{5, 6, 7}, {8, 9, 10, 11, 12, 13, 14}, {15}};
    const Batch batch = makeSourceBatch(sentences);
    const EncoderOutput together = encoder(batch.source, batch.sourceLengths);
    for (std::size_t i = 0; i < sentences.size(); ++i) {
        const Batch single = makeSourceBatch({sentences[i]});
        const EncoderOutput alone = encoder(single.source, single.sourceLengths);
        const int64_t length = single.source.size(1);
        const auto inBatch = together.outputs[int64_t(i)].slice(0, 0, length);
        QVERIFY2(torch::allclose(inBatch, alone.outputs[0], 1e-5, 1e-5), qPrintable(QString("outputs of %1").arg(i)));
        QVERIFY(torch::allclose(together.hidden.select(1, int64_t(i)), alone.hidden.select(1, 0), 1e-5, 1e-5));
        if (together.cells.defined())
            QVERIFY(torch::allclose(together.cells.select(1, int64_t(i)), alone.cells.select(1, 0), 1e-5, 1e-5));
        // Padded positions of the batch output are exactly zero.
        QCOMPARE(together.outputs[int64_t(i)].slice(0, length).abs().sum().item<float>(), 0.0f);
    }
}

void TestEncoder::trainingMatchesPackedModule_data()
{
    sameAloneAndInPaddedBatch_data();
}

void TestEncoder::trainingMatchesPackedModule()
{
    QFETCH(bool, bidirectional);
    QFETCH(int, layers);
    QFETCH(int, cell);
    torch::manual_seed(12);
    ModelConfig config = smallConfig(bidirectional, layers, RecurrentCell(cell));
    config.dropout = 0.0;  // training mode, yet deterministic
    Encoder encoder(20, config);
    encoder->train();
    const Batch batch = makeSourceBatch({{5, 6, 7}, {8, 9, 10, 11, 12, 13, 14}, {15}, {16, 17, 18, 19, 4, 3, 5}});
    // A loss that weighs every output and final state differently.
    const auto lossOf = [](const EncoderOutput &e) {
        return (e.outputs * torch::linspace(-1, 2, e.outputs.numel()).view_as(e.outputs)).sum()
               + (e.hidden * torch::linspace(3, -2, e.hidden.numel()).view_as(e.hidden)).sum()
               + (e.cells.defined() ? (e.cells * torch::linspace(-2, 1, e.cells.numel()).view_as(e.cells)).sum() : torch::zeros({}));
    };
    const auto parameters = encoder->named_parameters();
    const auto gradients = [&] {
        std::vector<torch::Tensor> g;
        for (const auto &p : parameters)
            g.push_back(p.value().grad().defined() ? p.value().grad().clone() : torch::Tensor());
        encoder->zero_grad();
        return g;
    };

    const EncoderOutput mine = encoder(batch.source, batch.sourceLengths);
    lossOf(mine).backward();
    const auto myGradients = gradients();
    const EncoderOutput expected = referenceEncode(encoder, batch.source, batch.sourceLengths);
    lossOf(expected).backward();
    const auto expectedGradients = gradients();

    QVERIFY(torch::allclose(mine.outputs, expected.outputs, 1e-5, 1e-5));
    QVERIFY(torch::allclose(mine.hidden, expected.hidden, 1e-5, 1e-5));
    {
        // Without gradients nothing is recorded, and the values are the same.
        torch::NoGradGuard noGrad;
        const EncoderOutput plain = encoder(batch.source, batch.sourceLengths);
        QVERIFY(torch::equal(plain.outputs, mine.outputs.detach()));
        QVERIFY(torch::equal(plain.hidden, mine.hidden.detach()));
    }
    QCOMPARE(mine.cells.defined(), RecurrentCell(cell) == RecurrentCell::Lstm);
    if (mine.cells.defined())
        QVERIFY(torch::allclose(mine.cells, expected.cells, 1e-5, 1e-5));
    for (std::size_t i = 0; i < parameters.size(); ++i) {
        QVERIFY2(myGradients[i].defined() && expectedGradients[i].defined(), parameters[i].key().c_str());
        QVERIFY2(torch::allclose(myGradients[i], expectedGradients[i], 1e-4, 1e-5), parameters[i].key().c_str());
    }
}

void TestEncoder::tapeMatchesTheModuleForManyCotangents_data()
{
    QTest::addColumn<bool>("bidirectional");
    QTest::addColumn<int>("layers");
    QTest::newRow("bidirectional, 2 layers") << true << 2;
    QTest::newRow("unidirectional, 1 layer") << false << 1;
    QTest::newRow("unidirectional, 3 layers") << false << 3;
}

// The tape's outputs and final states are torch::nn::GRU's on the same embeddings, and its
// gradients for K cotangents at once are autograd's through the module, one cotangent at a time.
void TestEncoder::tapeMatchesTheModuleForManyCotangents()
{
    QFETCH(bool, bidirectional);
    QFETCH(int, layers);
    torch::manual_seed(13);
    Encoder encoder(20, smallConfig(bidirectional, layers, RecurrentCell::Gru));
    encoder->eval();
    const int64_t points = 3, width = 5, cotangents = 4;
    const torch::Tensor embedded = torch::randn({points, width, 12});
    const EncoderTape tape(*encoder, embedded);

    const torch::Tensor input = embedded.clone().requires_grad_(true);
    const auto [outputs, finals] = encoder->recurrent.gru->forward(input);  // batch first, as the encoder builds it
    QVERIFY(torch::allclose(tape.outputs(), outputs, 1e-5, 1e-5));
    QVERIFY(torch::allclose(tape.finals(), finals, 1e-5, 1e-5));

    const torch::Tensor dOutputs = torch::randn({cotangents, points, width, outputs.size(2)});
    const torch::Tensor dFinals = torch::randn({cotangents, finals.size(0), points, finals.size(2)});
    const torch::Tensor mine = tape.backward(dOutputs, dFinals);
    QCOMPARE(mine.sizes(), (std::vector<int64_t>{cotangents, points, width, 12}));
    for (int64_t k = 0; k < cotangents; ++k) {
        const auto expected = torch::autograd::grad({(outputs * dOutputs[k]).sum() + (finals * dFinals[k]).sum()},
                                                    {input}, {}, /*retain_graph=*/true)[0];
        QVERIFY2(torch::allclose(mine[k], expected, 1e-4, 1e-5), qPrintable(QString("cotangent %1").arg(k)));
    }
}

void TestEncoder::tapeTakesOnlyGruInEvalMode()
{
    Encoder gru(20, smallConfig(true, 1, RecurrentCell::Gru));
    Encoder lstm(20, smallConfig(true, 1, RecurrentCell::Lstm));
    lstm->eval();
    QVERIFY(!EncoderTape::supports(*gru));  // a module starts in training mode
    QVERIFY(!EncoderTape::supports(*lstm));
    QVERIFY_THROWS_EXCEPTION(std::logic_error, EncoderTape(*lstm, torch::zeros({1, 2, 12})));
    gru->eval();
    QVERIFY(EncoderTape::supports(*gru));
}

// In training, the embedding's dropout and the one between layers take their masks from the
// thread's stream in that order, over (B, S, E) and (B, S, H) as the modules would; the outputs and
// the embeddings' gradients equal those of one-layer modules run on packed sequences with those
// masks applied by hand.
void TestEncoder::dropoutMasksAreTheStreamsDraws()
{
    torch::manual_seed(14);
    ModelConfig config = smallConfig(true, 2, RecurrentCell::Gru);
    config.dropout = 0.5;
    Encoder encoder(20, config);
    encoder->train();
    const Batch batch = makeSourceBatch({{5, 6, 7}, {8, 9, 10, 11, 12, 13, 14}, {15}});
    const torch::Tensor embedded = encoder->embedding(batch.source).detach();
    const int64_t width = embedded.size(1);
    const torch::Tensor weights = torch::linspace(-1, 2, 3 * width * 16).view({3, width, 16});
    const auto gradientOf = [&](const auto &encode) {
        const torch::Tensor leaf = embedded.clone().requires_grad_(true);
        const DropoutStream masks(1, 2, 3);
        const torch::Tensor outputs = encode(leaf);
        (outputs * weights).sum().backward();
        return std::make_pair(outputs.detach(), leaf.grad());
    };
    const auto [mine, myGradient] =
        gradientOf([&](const torch::Tensor &x) { return encoder->forwardEmbedded(x, batch.sourceLengths).outputs; });

    namespace rnn = torch::nn::utils::rnn;
    const auto layer = [&](int index, const torch::Tensor &input) {
        torch::nn::GRU gru(torch::nn::GRUOptions(input.size(2), 8).bidirectional(true));
        {
            torch::NoGradGuard noGrad;
            const auto source = encoder->recurrent.gru->named_parameters();
            for (auto &p : gru->named_parameters()) {
                std::string name = p.key();
                name.replace(name.find("_l0"), 3, "_l" + std::to_string(index));
                p.value().copy_(source[name]);
            }
        }
        const auto packed = rnn::pack_padded_sequence(input, batch.sourceLengths, true, false);
        return std::get<0>(rnn::pad_packed_sequence(std::get<0>(gru->forward_with_packed_input(packed)), true, 0.0,
                                                    input.size(1)));
    };
    const auto [expected, expectedGradient] = gradientOf([&](const torch::Tensor &x) {
        const torch::Tensor inputMask = dropoutFromStream(torch::ones(x.sizes()), 0.5, true);
        const torch::Tensor layerMask = dropoutFromStream(torch::ones({3, width, 16}), 0.5, true);
        return layer(1, layer(0, x * inputMask) * layerMask);
    });
    QVERIFY(torch::allclose(mine, expected, 1e-5, 1e-5));
    QVERIFY(torch::allclose(myGradient, expectedGradient, 1e-4, 1e-5));
    QVERIFY(!torch::allclose(myGradient, embedded.new_zeros(embedded.sizes())));
}

ATTNSCOPE_TEST(encoder, TestEncoder)
#include "tst_encoder.moc"
