#include "tests/common/testregistry.h"
#include "engine/charlm/charinferencenet.h"
#include "engine/core/torchapi.h"
#include "tests/common/randomcharweights.h"

#include <QtTest>

// CharInferenceNet, one character at a time with BLAS, gives what LibTorch's own modules give
// (Embedding, RNN / GRU / LSTM, Linear) for the same weights, at every step of a text.
class TestCharInferenceNet : public QObject
{
    Q_OBJECT
private slots:
    void matchesTorchModules_data();
    void matchesTorchModules();
    void refusesInconsistentWeights();
    void refusesCharactersAndStatesItDoesNotKnow();
};

namespace {

const std::u32string kText = U"The cat, the dog.\nThe bird sat still! \u00E9t\u00E9 and winter...";

std::u32string alphabetOf(std::u32string text)
{
    std::sort(text.begin(), text.end());
    text.erase(std::unique(text.begin(), text.end()), text.end());
    return text;
}

// The model's logits at every step of `ids`, and each layer's final h (and c), from LibTorch.
struct TorchRun {
    torch::Tensor logits;  // steps x alphabet
    torch::Tensor finalHidden, finalCell;  // layers x hidden
};

torch::Tensor tensorOf(const std::vector<float> &values, torch::IntArrayRef shape)
{
    return torch::from_blob(const_cast<float *>(values.data()), shape, torch::kFloat).clone();
}

template <typename Module>
void copyLayers(Module &rnn, const CharWeights &w)
{
    torch::NoGradGuard noGrad;
    auto parameters = rnn->named_parameters();
    const int64_t rows = gateCount(w.config.cell) * w.config.hidden;
    for (int l = 0; l < w.config.layers; ++l) {
        const CharLayerWeights &layer = w.layers[std::size_t(l)];
        const std::string n = std::to_string(l);
        parameters["weight_ih_l" + n].copy_(tensorOf(layer.inputWeights, {rows, w.inputSize(l)}));
        parameters["weight_hh_l" + n].copy_(tensorOf(layer.hiddenWeights, {rows, w.config.hidden}));
        parameters["bias_ih_l" + n].copy_(tensorOf(layer.inputBias, {rows}));
        parameters["bias_hh_l" + n].copy_(tensorOf(layer.hiddenBias, {rows}));
    }
}

TorchRun runTorch(const CharWeights &w, const std::vector<int> &ids)
{
    torch::NoGradGuard noGrad;
    const int64_t v = w.alphabetSize(), steps = int64_t(ids.size());
    const torch::Tensor idTensor = torch::tensor(std::vector<int64_t>(ids.begin(), ids.end()), torch::kLong).unsqueeze(0);
    torch::Tensor input;
    if (w.config.embed > 0) {
        torch::nn::Embedding embedding(v, w.config.embed);
        embedding->weight.copy_(tensorOf(w.embedding, {v, w.config.embed}));
        input = embedding(idTensor);
    } else {
        input = torch::nn::functional::one_hot(idTensor, v).to(torch::kFloat);
    }
    const int input0 = w.inputSize(0), hidden = w.config.hidden, layers = w.config.layers;
    TorchRun run;
    torch::Tensor output;
    switch (w.config.cell) {
    case RecurrentCell::Rnn: {
        torch::nn::RNN rnn(torch::nn::RNNOptions(input0, hidden).num_layers(layers).batch_first(true));
        copyLayers(rnn, w);
        auto [out, h] = rnn(input);
        output = out;
        run.finalHidden = h.squeeze(1);
        break;
    }
    case RecurrentCell::Gru: {
        torch::nn::GRU gru(torch::nn::GRUOptions(input0, hidden).num_layers(layers).batch_first(true));
        copyLayers(gru, w);
        auto [out, h] = gru(input);
        output = out;
        run.finalHidden = h.squeeze(1);
        break;
    }
    case RecurrentCell::Lstm: {
        torch::nn::LSTM lstm(torch::nn::LSTMOptions(input0, hidden).num_layers(layers).batch_first(true));
        copyLayers(lstm, w);
        auto [out, state] = lstm(input);
        output = out;
        run.finalHidden = std::get<0>(state).squeeze(1);
        run.finalCell = std::get<1>(state).squeeze(1);
        break;
    }
    }
    torch::nn::Linear linear(hidden, v);
    linear->weight.copy_(tensorOf(w.outputWeights, {v, hidden}));
    linear->bias.copy_(tensorOf(w.outputBias, {v}));
    run.logits = linear(output).reshape({steps, v});
    return run;
}

double largestDifference(const float *mine, const torch::Tensor &theirs)
{
    const torch::Tensor t = theirs.contiguous();
    double largest = 0;
    for (int64_t i = 0; i < t.numel(); ++i)
        largest = std::max(largest, std::abs(double(mine[i]) - double(t.data_ptr<float>()[i])));
    return largest;
}

}

void TestCharInferenceNet::matchesTorchModules_data()
{
    QTest::addColumn<int>("cell");
    QTest::addColumn<int>("layers");
    QTest::addColumn<int>("embed");
    QTest::addColumn<int>("hidden");
    for (RecurrentCell cell : {RecurrentCell::Rnn, RecurrentCell::Gru, RecurrentCell::Lstm})
        for (int layers : {1, 2})
            for (int embed : {0, 6}) {
                const QByteArray name = QByteArray(cellName(cell)) + " " + QByteArray::number(layers) +
                                        (layers == 1 ? " layer" : " layers") + (embed ? " embedded" : " one-hot");
                QTest::newRow(name.constData()) << int(cell) << layers << embed << 9;
            }
    // The size the lab is measured at, and a third layer.
    for (RecurrentCell cell : {RecurrentCell::Rnn, RecurrentCell::Gru, RecurrentCell::Lstm})
        QTest::newRow((QByteArray(cellName(cell)) + " 3 layers of 256").constData()) << int(cell) << 3 << 64 << 256;
}

void TestCharInferenceNet::matchesTorchModules()
{
    QFETCH(int, cell);
    QFETCH(int, layers);
    QFETCH(int, embed);
    QFETCH(int, hidden);
    CharModelConfig config;
    config.cell = RecurrentCell(cell);
    config.layers = layers;
    config.embed = embed;
    config.hidden = hidden;
    // Weights of about the size initialisation gives a layer of this width: no unit sits saturated,
    // and the plain RNN is not so chaotic that it amplifies float rounding by orders of magnitude.
    const CharWeights weights = randomCharWeights(config, alphabetOf(kText), 7, 1.0f / std::sqrt(float(hidden)));
    const CharInferenceNet net(weights);

    std::vector<int> ids;
    for (char32_t c : kText)
        ids.push_back(net.idOf(c));
    QVERIFY(std::find(ids.begin(), ids.end(), -1) == ids.end());
    const TorchRun expected = runTorch(weights, ids);

    CharInferenceNet::State state = net.start();
    std::vector<float> logits(std::size_t(net.alphabetSize()));
    for (std::size_t t = 0; t < ids.size(); ++t) {
        net.step(ids[t], state, logits.data());
        // Float rounding, which a plain RNN's state amplifies from step to step.
        const double difference = largestDifference(logits.data(), expected.logits[int64_t(t)]);
        const double tolerance = 1e-5 * (1 + expected.logits[int64_t(t)].abs().max().item<double>());
        QVERIFY2(difference < tolerance, qPrintable(QString("step %1: logits differ by %2").arg(t).arg(difference)));
    }
    for (int l = 0; l < layers; ++l) {
        const double difference = largestDifference(net.hidden(state, l), expected.finalHidden[l]);
        QVERIFY2(difference < 1e-5, qPrintable(QString("layer %1's state differs by %2").arg(l).arg(difference)));
    }
    if (config.cell == RecurrentCell::Lstm) {
        const float *cells = state.values.data() + std::size_t(layers) * std::size_t(hidden);
        const double difference = largestDifference(cells, expected.finalCell);
        QVERIFY2(difference < 1e-5, qPrintable(QString("the cells differ by %1").arg(difference)));
    }
}

void TestCharInferenceNet::refusesInconsistentWeights()
{
    CharModelConfig config;
    config.hidden = 4;
    CharWeights weights = randomCharWeights(config, U"abc", 1);
    weights.layers.front().hiddenBias.pop_back();
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, CharInferenceNet{weights});
    weights = randomCharWeights(config, U"bac", 1);
    try {
        CharInferenceNet{weights};
        QFAIL("an unsorted alphabet was accepted");
    } catch (const std::invalid_argument &e) {
        QVERIFY2(QString(e.what()).contains("sorted"), e.what());
    }
}

void TestCharInferenceNet::refusesCharactersAndStatesItDoesNotKnow()
{
    CharModelConfig config;
    config.hidden = 4;
    const CharInferenceNet net(randomCharWeights(config, U"abc", 1));
    QCOMPARE(net.idOf(U'b'), 1);
    QCOMPARE(net.idOf(U'd'), -1);
    CharInferenceNet::State state = net.start();
    std::vector<float> logits(3);
    QVERIFY_THROWS_EXCEPTION(std::out_of_range, net.step(3, state, logits.data()));
    QVERIFY_THROWS_EXCEPTION(std::out_of_range, net.step(-1, state, logits.data()));
    config.cell = RecurrentCell::Lstm;
    CharInferenceNet::State lstmState = CharInferenceNet(randomCharWeights(config, U"abc", 1)).start();
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, net.step(0, lstmState, logits.data()));
}

ATTNSCOPE_TEST(charinferencenet, TestCharInferenceNet)
#include "tst_charinferencenet.moc"
