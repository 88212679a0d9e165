#include "tests/common/testregistry.h"
#include "engine/attention/decoderrecurrence.h"
#include "engine/attention/decodertape.h"
#include "engine/attention/outputlogprob.h"
#include "engine/attention/seq2seqnet.h"
#include "engine/core/dropoutstream.h"
#include "tests/common/referencenet.h"

#include <QtTest>

#include <limits>

Q_DECLARE_METATYPE(std::vector<bool>)

namespace {

ModelConfig smallConfig(int layers, double dropout, RecurrentCell cell)
{
    ModelConfig c;
    c.attention = AttentionKind::Bahdanau;  // a decoder is built from a variant, never auto
    c.cell = cell;
    c.embedSize = 6;
    c.hiddenSize = 8;
    c.layers = layers;
    c.dropout = dropout;
    return c;
}

// One step of the fused decoder from `hidden` (layers, B, H) and, for an LSTM, `cells` (the
// same), as the step loops run it.
ReferenceStep fusedStep(Decoder &d, const torch::Tensor &token, const torch::Tensor &hidden, const torch::Tensor &cells,
                        const DecoderMemory &memory)
{
    const FusedDecoderWeights w = d->fusedWeights();
    const auto embedded = d->dropout(d->embedding(token));
    DecoderMemory m = memory;
    m.maskBias = torch::zeros(m.mask.sizes()).masked_fill(m.mask.logical_not(), -std::numeric_limits<float>::infinity());
    DecoderState state{hidden.unbind(0), cells.defined() ? cells.unbind(0) : std::vector<torch::Tensor>(), {}, {}};
    const DecoderStepOutput s = d->step(w, d->embeddingGates(w, embedded), state, m);
    return {d->logits(w, s.output, s.context, embedded), torch::stack(state.layers), s.weights,
            cells.defined() ? torch::stack(state.cells) : torch::Tensor()};
}

struct Sentences {
    torch::Tensor source = torch::tensor({{4, 5, 6, 7, 2}, {8, 9, 2, 0, 0}, {10, 2, 0, 0, 0}});
    torch::Tensor lengths = torch::tensor({5, 3, 2});
    torch::Tensor target = torch::tensor({{1, 7, 6, 5, 4, 2}, {1, 9, 8, 2, 0, 0}, {1, 10, 2, 0, 0, 0}});
};

}

// The decoder runs torch::nn::GRU's (RNN's, LSTM's) weights through a hand-written, fused step; it
// must give what the modules give, forwards and backwards.
class TestDecoder : public QObject
{
    Q_OBJECT
private slots:
    void stepMatchesModules_data();
    void stepMatchesModules();
    void trainingUnrollMatchesModules_data();
    void trainingUnrollMatchesModules();
    void tapeMatchesAutogradForEveryStepAsked_data();
    void tapeMatchesAutogradForEveryStepAsked();
    void tapeTakesOnlyGruWithBahdanau();
    void recurrenceMatchesTheStepLoop_data();
    void recurrenceMatchesTheStepLoop();
    void recurrenceTakesOnlyTeacherForcedGruWithBahdanau();
};

void TestDecoder::stepMatchesModules_data()
{
    QTest::addColumn<int>("layers");
    QTest::addColumn<int>("cell");
    QTest::newRow("gru, 1 layer") << 1 << int(RecurrentCell::Gru);
    QTest::newRow("gru, 2 layers") << 2 << int(RecurrentCell::Gru);
    QTest::newRow("gru, 3 layers") << 3 << int(RecurrentCell::Gru);
    QTest::newRow("rnn, 2 layers") << 2 << int(RecurrentCell::Rnn);
    QTest::newRow("lstm, 1 layer") << 1 << int(RecurrentCell::Lstm);
    QTest::newRow("lstm, 2 layers") << 2 << int(RecurrentCell::Lstm);
}

void TestDecoder::stepMatchesModules()
{
    QFETCH(int, layers);
    QFETCH(int, cell);
    torch::manual_seed(21);
    Decoder decoder(12, smallConfig(layers, 0.1, RecurrentCell(cell)));
    decoder->eval();
    torch::NoGradGuard noGrad;
    const auto mask = torch::tensor({{1, 1, 1, 1}, {1, 1, 0, 0}, {1, 0, 0, 0}}).to(torch::kBool);
    const auto values = torch::randn({3, 4, 8}) * mask.unsqueeze(2);
    const DecoderMemory memory{values, decoder->attention->keys(values), mask, {}};
    const auto token = torch::tensor({3, 5, 1});
    const auto hidden = torch::randn({layers, 3, 8});
    const auto cells = RecurrentCell(cell) == RecurrentCell::Lstm ? torch::randn({layers, 3, 8}) : torch::Tensor();
    const ReferenceStep mine = fusedStep(decoder, token, hidden, cells, memory);
    const ReferenceStep expected = referenceStep(decoder, token, hidden, memory, cells);
    QVERIFY(torch::allclose(mine.logits, expected.logits, 1e-5, 1e-5));
    QVERIFY(torch::allclose(mine.hidden, expected.hidden, 1e-5, 1e-5));
    QCOMPARE(mine.cells.defined(), cells.defined());
    if (cells.defined())
        QVERIFY(torch::allclose(mine.cells, expected.cells, 1e-5, 1e-5));
    QVERIFY(torch::allclose(mine.weights, expected.weights, 1e-6, 1e-6));
    QCOMPARE(mine.weights[2][1].item<float>(), 0.0f);
}

void TestDecoder::trainingUnrollMatchesModules_data()
{
    QTest::addColumn<std::vector<bool>>("coins");
    QTest::addColumn<int>("cell");
    const auto gru = int(RecurrentCell::Gru), rnn = int(RecurrentCell::Rnn), lstm = int(RecurrentCell::Lstm);
    QTest::newRow("gru, always teacher forced") << std::vector<bool>{true, true, true, true} << gru;
    QTest::newRow("gru, free running") << std::vector<bool>{false, false, false, false} << gru;
    QTest::newRow("gru, mixed") << std::vector<bool>{false, true, true, false} << gru;
    QTest::newRow("rnn, mixed") << std::vector<bool>{false, true, true, false} << rnn;
    QTest::newRow("lstm, always teacher forced") << std::vector<bool>{true, true, true, true} << lstm;
    QTest::newRow("lstm, mixed") << std::vector<bool>{false, true, true, false} << lstm;
}

void TestDecoder::trainingUnrollMatchesModules()
{
    QFETCH(std::vector<bool>, coins);
    QFETCH(int, cell);
    torch::manual_seed(22);
    Seq2SeqNet net(12, smallConfig(2, 0.0, RecurrentCell(cell)));  // no dropout: training mode, yet deterministic
    const Sentences s;
    std::size_t coin = 0;
    const auto mine = net->forward(s.source, s.lengths, s.target, [&] { return bool(coins[coin++]); }).logits;
    QCOMPARE(coin, coins.size());
    mine.pow(2).sum().backward();
    std::vector<torch::Tensor> myGradients;
    for (const auto &p : net->parameters())
        myGradients.push_back(p.grad().clone());
    net->zero_grad();

    const auto expected = referenceUnroll(net, s.source, s.lengths, s.target, coins);
    QCOMPARE(mine.sizes(), expected.sizes());
    QVERIFY(torch::allclose(mine, expected, 1e-5, 1e-5));
    expected.pow(2).sum().backward();
    const auto parameters = net->named_parameters();
    for (std::size_t i = 0; i < parameters.size(); ++i) {
        const auto &grad = parameters[i].value().grad();
        QVERIFY2(torch::allclose(myGradients[i], grad, 1e-4, 1e-5), parameters[i].key().c_str());
    }
}

void TestDecoder::tapeMatchesAutogradForEveryStepAsked_data()
{
    QTest::addColumn<int>("layers");
    QTest::addColumn<bool>("bidirectional");
    QTest::addColumn<bool>("bridge");
    QTest::newRow("2 layers, bidirectional encoder") << 2 << true << true;
    QTest::newRow("1 layer, one direction") << 1 << false << true;
    QTest::newRow("3 layers, no bridge") << 3 << true << false;
}

// decoderTapeGradients gives the log-probabilities autograd gives through the net from the same
// encoder outputs, and their gradients w.r.t. those outputs and the final states, for several
// steps at once, a contrast included.
void TestDecoder::tapeMatchesAutogradForEveryStepAsked()
{
    QFETCH(int, layers);
    QFETCH(bool, bidirectional);
    QFETCH(bool, bridge);
    torch::manual_seed(21);
    ModelConfig config = smallConfig(layers, 0.0, RecurrentCell::Gru);
    config.bidirectional = bidirectional;
    config.bridge = bridge;
    Seq2SeqNet net(12, config);
    net->eval();
    const int64_t points = 3, width = 4, directions = bidirectional ? 2 : 1;
    const torch::Tensor outputs = torch::randn({points, width, 8});
    const torch::Tensor finals = torch::randn({layers * directions, points, 8 / directions});
    const torch::Tensor target = torch::tensor({{1, 7, 6, 5, 4, 2}});
    const std::vector<int> steps{0, 2, 4};
    const std::vector<int64_t> contrast{-1, 9, -1};
    const DecoderTapeGradients mine = decoderTapeGradients(*net, outputs, finals, target, steps, contrast);

    const torch::Tensor leafOutputs = outputs.clone().requires_grad_(true), leafFinals = finals.clone().requires_grad_(true);
    const torch::Tensor source = torch::full({points, width}, 4, torch::kLong), targets = target.repeat({points, 1});
    const auto out = net->fromEncoded(net->encoder->bridged(leafOutputs, leafFinals.unbind(0), {}), source, targets,
                                      source, steps);
    for (std::size_t k = 0; k < steps.size(); ++k) {
        torch::Tensor f = targetLogProbs(out[k], source, targets.narrow(1, 1 + steps[k], 1)).select(1, 0);
        if (contrast[k] >= 0)
            f = f - targetLogProbs(out[k], source, torch::full({points, 1}, contrast[k], torch::kLong)).select(1, 0);
        const auto g = torch::autograd::grad({f.sum()}, {leafOutputs, leafFinals}, {}, /*retain_graph=*/true, false,
                                             /*allow_unused=*/true);
        const QString which = QString("step %1").arg(steps[k]);
        QVERIFY2(torch::allclose(mine.values[int64_t(k)], f.detach(), 1e-5, 1e-5), qPrintable(which));
        QVERIFY2(torch::allclose(mine.dOutputs[int64_t(k)], g[0], 1e-4, 1e-5), qPrintable(which));
        const torch::Tensor expectedFinals = g[1].defined() ? g[1] : torch::zeros_like(finals);
        QVERIFY2(torch::allclose(mine.dFinals[int64_t(k)], expectedFinals, 1e-4, 1e-5), qPrintable(which));
    }
}

void TestDecoder::tapeTakesOnlyGruWithBahdanau()
{
    ModelConfig config = smallConfig(1, 0.0, RecurrentCell::Gru);
    Seq2SeqNet gru(12, config);
    QVERIFY(!decoderTapeSupports(*gru));  // a module starts in training mode
    gru->eval();
    QVERIFY(decoderTapeSupports(*gru));
    config.attention = AttentionKind::Location;
    Seq2SeqNet location(12, config);
    location->eval();
    QVERIFY(!decoderTapeSupports(*location));
    config = smallConfig(1, 0.0, RecurrentCell::Lstm);
    Seq2SeqNet lstm(12, config);
    lstm->eval();
    QVERIFY(!decoderTapeSupports(*lstm));
    config = smallConfig(1, 0.0, RecurrentCell::Gru);
    config.pointer = PointerMode::On;
    Seq2SeqNet pointer(12, config);
    pointer->eval();
    QVERIFY(!decoderTapeSupports(*pointer));
}

void TestDecoder::recurrenceMatchesTheStepLoop_data()
{
    QTest::addColumn<int>("layers");
    QTest::addColumn<double>("dropout");
    QTest::addColumn<bool>("bidirectional");
    QTest::addColumn<bool>("bridge");
    QTest::newRow("1 layer") << 1 << 0.0 << true << true;
    QTest::newRow("2 layers, dropout") << 2 << 0.3 << true << true;
    QTest::newRow("3 layers, dropout, one direction") << 3 << 0.5 << false << true;
    QTest::newRow("2 layers, no bridge") << 2 << 0.0 << true << false;
}

// Training's recurrent node gives the states, and from them the gradients of every parameter,
// that the step-by-step loop gives, dropout masks included (both draw them from one stream).
void TestDecoder::recurrenceMatchesTheStepLoop()
{
    QFETCH(int, layers);
    QFETCH(double, dropout);
    QFETCH(bool, bidirectional);
    QFETCH(bool, bridge);
    ModelConfig config = smallConfig(layers, dropout, RecurrentCell::Gru);
    config.bidirectional = bidirectional;
    config.bridge = bridge;
    torch::manual_seed(23);
    Seq2SeqNet net(12, config);
    const Sentences s;
    const int64_t steps = s.target.size(1) - 1;
    const torch::Tensor dOutput = torch::randn({3, steps, 8}), dContext = torch::randn({3, steps, 8});
    const torch::Tensor dEmbedding = torch::randn({3, steps, 6});
    const auto run = [&](bool node) {
        torch::manual_seed(5);
        const DropoutStream masks(7, 1, 0);
        const FusedDecoderWeights w = net->decoder->fusedWeights();
        const DecoderStates states = node ? net->decoderStates(w, s.source, s.lengths, s.target, [] { return true; })
                                          : net->decoderStepStates(w, s.source, s.lengths, s.target, [] { return true; })
                                                .stacked();
        torch::autograd::backward({states.output, states.context, states.embedding}, {dOutput, dContext, dEmbedding});
        std::vector<torch::Tensor> gradients;
        for (const auto &p : net->parameters()) {
            gradients.push_back(p.grad().defined() ? p.grad().clone() : torch::zeros_like(p));
            p.mutable_grad() = torch::Tensor();
        }
        return std::make_pair(states, gradients);
    };
    const auto [mine, myGradients] = run(true);
    const auto [expected, expectedGradients] = run(false);
    QVERIFY(QString::fromStdString(mine.output.grad_fn()->name()).contains("DecoderPass"));
    QVERIFY(torch::allclose(mine.output, expected.output, 1e-5, 1e-6));
    QVERIFY(torch::allclose(mine.context, expected.context, 1e-5, 1e-6));
    QVERIFY(torch::equal(mine.embedding, expected.embedding));
    QVERIFY(!mine.weights.defined());
    const auto parameters = net->named_parameters();
    for (std::size_t i = 0; i < parameters.size(); ++i)
        QVERIFY2(torch::allclose(myGradients[i], expectedGradients[i], 1e-4, 1e-5), parameters[i].key().c_str());
}

void TestDecoder::recurrenceTakesOnlyTeacherForcedGruWithBahdanau()
{
    ModelConfig config = smallConfig(2, 0.0, RecurrentCell::Gru);
    Seq2SeqNet gru(12, config);
    QVERIFY(decoderRecurrenceSupports(*gru->decoder));
    const Sentences s;
    const auto nodeOf = [&](Seq2SeqNet &net, const std::function<bool()> &coin) {
        const DecoderStates states = net->decoderStates(net->decoder->fusedWeights(), s.source, s.lengths, s.target, coin);
        return QString::fromStdString(states.output.grad_fn()->name());
    };
    QVERIFY(nodeOf(gru, [] { return true; }).contains("DecoderPass"));
    QVERIFY(!nodeOf(gru, [] { return false; }).contains("DecoderPass"));  // free running needs each prediction
    config.attention = AttentionKind::Location;
    Seq2SeqNet location(12, config);
    QVERIFY(!decoderRecurrenceSupports(*location->decoder));
    QVERIFY(!nodeOf(location, [] { return true; }).contains("DecoderPass"));
    Seq2SeqNet lstm(12, smallConfig(2, 0.0, RecurrentCell::Lstm));
    QVERIFY(!decoderRecurrenceSupports(*lstm->decoder));
    config = smallConfig(2, 0.0, RecurrentCell::Gru);
    config.pointer = PointerMode::On;
    Seq2SeqNet pointer(12, config);
    QVERIFY(!decoderRecurrenceSupports(*pointer->decoder));
}

ATTNSCOPE_TEST(decoder, TestDecoder)
#include "tst_decoder.moc"
