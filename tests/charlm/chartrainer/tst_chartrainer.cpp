#include "tests/common/testregistry.h"
#include "engine/charlm/builtintexts.h"
#include "engine/charlm/chartrainer.h"
#include "engine/core/torchapi.h"

#include <QtTest>

#include <cmath>
#include <limits>

// Training as a whole: initialised as torch initialises, every target trained once an epoch (the
// last window included), the loss as reported, threads, seeds, Stop and divergence.
class TestCharTrainer : public QObject
{
    Q_OBJECT
private slots:
    void initialisedAsTorch_data();
    void initialisedAsTorch();
    void uniformModelReadsLog2OfTheAlphabet();
    void epochReportsTheTextAsRead();
    void everyTargetOnceAnEpoch_data();
    void everyTargetOnceAnEpoch();
    void lastWindowIsTrained();
    void pangramIsLearned_data();
    void pangramIsLearned();
    void oneThreadAndASeedRepeat();
    void threadsShareTheStreams();
    void stopIsHonoured();
    void aFurtherCallTrainsOn();
    void blownUpLossSaysWhatToTry();
    void badInputIsRefused();
    void wholeLineWithSgdStepsAsLibTorch_data();
    void wholeLineWithSgdStepsAsLibTorch();
    void wholeTextIsRefusedForLongTexts();
};

namespace {

CharModelConfig smallModel(RecurrentCell cell = RecurrentCell::Gru, int embed = 8)
{
    return {cell, 24, 1, embed};
}

CharTrainingConfig training(int seqLen, int batch, double lr, int epochs)
{
    CharTrainingConfig t;
    t.seqLen = seqLen;
    t.batch = batch;
    t.lr = lr;
    t.epochs = epochs;
    t.seed = 5;
    t.threads = 1;
    return t;
}

std::vector<float> flat(const CharWeights &w)
{
    std::vector<float> all = w.embedding;
    for (const CharLayerWeights &l : w.layers)
        for (const auto *v : {&l.inputWeights, &l.hiddenWeights, &l.inputBias, &l.hiddenBias})
            all.insert(all.end(), v->begin(), v->end());
    all.insert(all.end(), w.outputWeights.begin(), w.outputWeights.end());
    all.insert(all.end(), w.outputBias.begin(), w.outputBias.end());
    return all;
}

}

void TestCharTrainer::initialisedAsTorch_data()
{
    QTest::addColumn<int>("cell");
    QTest::addColumn<int>("embed");
    QTest::newRow("rnn, one-hot") << int(RecurrentCell::Rnn) << 0;
    QTest::newRow("gru, embedding") << int(RecurrentCell::Gru) << 16;
    QTest::newRow("lstm, embedding") << int(RecurrentCell::Lstm) << 16;
}

// The same numbers as the reference script's modules built after torch.manual_seed(seed).
void TestCharTrainer::initialisedAsTorch()
{
    QFETCH(int, cell);
    QFETCH(int, embed);
    const CharText text = buildCharText(builtInLongText(), 0.05, 32);
    const CharModelConfig model{RecurrentCell(cell), 32, 2, embed};
    CharTrainingConfig settings = training(32, 4, 1e-3, 1);
    settings.seed = 42;
    const CharWeights mine = CharTrainer(text, model, settings).weights();

    torch::manual_seed(42);
    const int v = text.alphabetSize(), input = embed > 0 ? embed : v;
    std::vector<torch::Tensor> expected;
    if (embed > 0)
        expected.push_back(torch::nn::Embedding(v, embed)->weight);
    std::vector<torch::Tensor> recurrent;
    if (model.cell == RecurrentCell::Rnn)
        recurrent = torch::nn::RNN(torch::nn::RNNOptions(input, 32).num_layers(2))->parameters();
    else if (model.cell == RecurrentCell::Gru)
        recurrent = torch::nn::GRU(torch::nn::GRUOptions(input, 32).num_layers(2))->parameters();
    else
        recurrent = torch::nn::LSTM(torch::nn::LSTMOptions(input, 32).num_layers(2))->parameters();
    expected.insert(expected.end(), recurrent.begin(), recurrent.end());
    torch::nn::Linear output(32, v);
    expected.push_back(output->weight);
    expected.push_back(output->bias);

    std::vector<float> expectedFlat;
    for (const auto &p : expected)
        expectedFlat.insert(expectedFlat.end(), p.data_ptr<float>(), p.data_ptr<float>() + p.numel());
    QCOMPARE(flat(mine), expectedFlat);
}

void TestCharTrainer::uniformModelReadsLog2OfTheAlphabet()
{
    const CharText text = buildCharText(builtInLongText(), 0.05, 32);
    CharWeights uniform = CharTrainer(text, smallModel(RecurrentCell::Lstm), training(32, 4, 1e-3, 1)).weights();
    std::fill(uniform.outputWeights.begin(), uniform.outputWeights.end(), 0.0f);
    std::fill(uniform.outputBias.begin(), uniform.outputBias.end(), 0.0f);
    const CharTrainer trainer(text, uniform, training(32, 4, 1e-3, 1));
    QVERIFY(std::abs(trainer.bitsPerChar(0, text.length()) - std::log2(double(text.alphabetSize()))) < 1e-6);
    QVERIFY(std::abs(trainer.bitsPerChar(100, 200) - std::log2(double(text.alphabetSize()))) < 1e-6);
}

// With a learning rate too small to move the weights, the epoch's training loss is the training
// text read stream by stream, and its validation loss the tail read from a zero state.
void TestCharTrainer::epochReportsTheTextAsRead()
{
    const std::string source = builtInLongText().substr(0, 3000);
    const CharText text = buildCharText(source, 0.1, 50);
    QVERIFY(text.validationLength() > 0);
    CharTrainer trainer(text, smallModel(), training(50, 1, 1e-6, 1));
    const double before = trainer.bitsPerChar(0, text.trainLength);
    const double validationBefore = trainer.bitsPerChar(text.trainLength, text.length());
    std::vector<CharProgress> windows;
    const auto epochs = trainer.train({[&](const CharProgress &p) { windows.push_back(p); }, {}});
    QCOMPARE(epochs.size(), size_t(1));
    const CharStreams streams = charStreams(text.trainLength, 1, 50);
    QCOMPARE(int64_t(windows.size()), streams.windowsPerEpoch);
    QCOMPARE(epochs[0].iteration, streams.windowsPerEpoch);
    QVERIFY(std::abs(epochs[0].trainBitsPerChar - before) < 1e-3);
    QVERIFY(std::abs(epochs[0].validationBitsPerChar - validationBefore) < 1e-3);
    QCOMPARE(epochs[0].validationBitsPerChar, trainer.bitsPerChar(text.trainLength, text.length()));
    QVERIFY(epochs[0].charsPerSecond > 0);
}

void TestCharTrainer::everyTargetOnceAnEpoch_data()
{
    QTest::addColumn<int>("length");
    QTest::addColumn<int>("seqLen");
    QTest::addColumn<int>("batch");
    QTest::addColumn<int>("threads");
    QTest::newRow("a shorter last stream, two threads") << 3000 << 50 << 7 << 2;
    QTest::newRow("32 streams, three threads") << 1000 << 16 << 32 << 3;
    // 13 targets in 6 streams of 3: the fifth has one, the sixth none.
    QTest::newRow("an empty last stream") << 14 << 2 << 6 << 2;
}

// With a learning rate too small to move the weights, the epoch's training loss is that of each
// stream's span read from a zero state, weighted by its targets: every target counted once.
void TestCharTrainer::everyTargetOnceAnEpoch()
{
    QFETCH(int, length);
    QFETCH(int, seqLen);
    QFETCH(int, batch);
    QFETCH(int, threads);
    const CharText text = buildCharText(builtInLongText().substr(0, size_t(length)), 0.0, seqLen);
    CharTrainingConfig settings = training(seqLen, batch, 1e-6, 1);
    settings.threads = threads;
    CharTrainer trainer(text, smallModel(RecurrentCell::Lstm), settings);
    const CharStreams streams = charStreams(text.trainLength, batch, seqLen);
    double expected = 0;
    for (int s = 0; s < streams.streams; ++s) {
        const int64_t targets = std::clamp<int64_t>(streams.targetsPerEpoch - s * streams.streamLength, 0,
                                                    streams.streamLength);
        if (targets > 0)
            expected += trainer.bitsPerChar(s * streams.streamLength, s * streams.streamLength + targets + 1) *
                        double(targets);
    }
    expected /= double(streams.targetsPerEpoch);
    const auto epochs = trainer.train({});
    QVERIFY2(std::abs(epochs[0].trainBitsPerChar - expected) < 1e-3,
             qPrintable(QStringLiteral("%1, expected %2").arg(epochs[0].trainBitsPerChar).arg(expected)));
}

// The 44-character pangram in windows of 16, 16 and 11 targets: a trainer that skips the short
// last window never learns the text's last quarter, which reading the whole text then shows.
void TestCharTrainer::lastWindowIsTrained()
{
    const CharText text = buildCharText(builtInShortText(), 0.0, 16);
    CharTrainer trainer(text, smallModel(), training(16, 1, 1e-2, 150));
    const auto epochs = trainer.train({});
    QVERIFY2(trainer.bitsPerChar(0, text.length()) < 0.1,
             qPrintable(QString::number(trainer.bitsPerChar(0, text.length()))));
    QCOMPARE(epochs.back().iteration, int64_t(3 * 150));
}

void TestCharTrainer::pangramIsLearned_data()
{
    QTest::addColumn<int>("cell");
    QTest::addColumn<int>("optimizer");
    QTest::addColumn<double>("lr");
    QTest::newRow("gru, adam") << int(RecurrentCell::Gru) << int(CharOptimizer::Adam) << 1e-2;
    QTest::newRow("lstm, adam") << int(RecurrentCell::Lstm) << int(CharOptimizer::Adam) << 1e-2;
    QTest::newRow("rnn, adagrad") << int(RecurrentCell::Rnn) << int(CharOptimizer::Adagrad) << 1e-1;
}

void TestCharTrainer::pangramIsLearned()
{
    QFETCH(int, cell);
    QFETCH(int, optimizer);
    QFETCH(double, lr);
    const CharText text = buildCharText(builtInShortText(), 0.05, 64);
    QVERIFY(!text.validationNote.empty());
    CharTrainingConfig settings = training(64, 32, lr, 300);
    settings.optimizer = CharOptimizer(optimizer);
    CharTrainer trainer(text, CharModelConfig{RecurrentCell(cell), 64, 1, 16}, settings);
    const auto epochs = trainer.train({});
    QCOMPARE(epochs.size(), size_t(300));
    QVERIFY(std::isnan(epochs.back().validationBitsPerChar));
    QVERIFY2(epochs.back().trainBitsPerChar < 0.05, qPrintable(QString::number(epochs.back().trainBitsPerChar)));
}

void TestCharTrainer::oneThreadAndASeedRepeat()
{
    const CharText text = buildCharText(builtInLongText().substr(0, 4000), 0.05, 32);
    const auto run = [&] {
        CharTrainer trainer(text, CharModelConfig{RecurrentCell::Gru, 32, 2, 8}, training(32, 8, 3e-3, 2));
        trainer.train({});
        return flat(trainer.weights());
    };
    const std::vector<float> first = run();
    QCOMPARE(run(), first);
}

// Two threads read half the streams each and sum their gradients: the same steps as one thread.
void TestCharTrainer::threadsShareTheStreams()
{
    const CharText text = buildCharText(builtInLongText().substr(0, 4000), 0.05, 32);
    const auto run = [&](int threads) {
        CharTrainingConfig settings = training(32, 7, 3e-3, 1);
        settings.threads = threads;
        CharTrainer trainer(text, CharModelConfig{RecurrentCell::Lstm, 32, 2, 8}, settings);
        const auto epochs = trainer.train({});
        return std::make_pair(flat(trainer.weights()), epochs.back().trainBitsPerChar);
    };
    const auto [one, oneLoss] = run(1);
    const auto [two, twoLoss] = run(2);
    QVERIFY(std::abs(oneLoss - twoLoss) < 1e-5);
    QVERIFY(torch::allclose(torch::tensor(one), torch::tensor(two), 1e-4, 1e-5));
}

void TestCharTrainer::stopIsHonoured()
{
    const CharText text = buildCharText(builtInLongText(), 0.05, 32);
    CharTrainer trainer(text, smallModel(), training(32, 4, 1e-3, 5));
    const CharWeights before = trainer.weights();
    std::atomic<bool> stop{false};
    int windows = 0;
    const auto epochs = trainer.train({[&](const CharProgress &) { stop = ++windows == 3; }, {}}, &stop);
    QCOMPARE(windows, 3);
    QVERIFY(epochs.empty());
    QVERIFY(flat(trainer.weights()) != flat(before));
}

void TestCharTrainer::aFurtherCallTrainsOn()
{
    const CharText text = buildCharText(builtInShortText(), 0.0, 16);
    CharTrainer trainer(text, smallModel(), training(16, 1, 1e-2, 2));
    const auto first = trainer.train({});
    int epochsReported = 0;
    const auto second = trainer.train({[&](const CharProgress &p) { epochsReported = p.epochs; }, {}});
    QCOMPARE(second.size(), size_t(2));
    QCOMPARE(second[0].epoch, 3);
    QCOMPARE(epochsReported, 4);
    QCOMPARE(second.back().iteration, 2 * first.back().iteration);
    QVERIFY(second.back().trainBitsPerChar < first.back().trainBitsPerChar);
}

// Adam's and Adagrad's steps are bounded by the learning rate, so within the settings' range the
// loss stays finite however badly training goes (a learning rate of 1 reads 5 to 60 bits per
// character). A model whose output layer has run off to the ends of the float range stands in for
// the runaway that makes it infinite: certain of one character, it gives every other one a
// probability of exp(-6e38).
void TestCharTrainer::blownUpLossSaysWhatToTry()
{
    const CharText text = buildCharText(builtInLongText(), 0.05, 32);
    CharWeights blownUp = CharTrainer(text, smallModel(), training(32, 4, 1e-3, 1)).weights();
    std::fill(blownUp.outputBias.begin(), blownUp.outputBias.end(), -3e38f);
    blownUp.outputBias[0] = 3e38f;
    CharTrainingConfig settings = training(32, 4, 1.0, 1);
    settings.clip = 0;
    CharTrainer trainer(text, blownUp, settings);
    int windows = 0;
    try {
        trainer.train({[&](const CharProgress &) { ++windows; }, {}});
        QFAIL("training went on");
    } catch (const std::runtime_error &e) {
        const QString message = e.what();
        QVERIFY2(message.contains("epoch 1, window 1 of") && message.contains("lower learning rate (now 1)") &&
                     message.contains("gradient clipping (now off"),
                 e.what());
    }
    QCOMPARE(windows, 0);
    QCOMPARE(flat(trainer.weights()), flat(blownUp));  // no step taken
}

void TestCharTrainer::badInputIsRefused()
{
    const CharText text = buildCharText(builtInLongText(), 0.05, 32);
    const CharText other = buildCharText(builtInShortText(), 0.05, 32);
    CharTrainer trainer(text, smallModel(), training(32, 4, 1e-3, 1));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, CharTrainer(other, trainer.weights(), training(32, 4, 1e-3, 1)));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, trainer.bitsPerChar(5, 6));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, trainer.bitsPerChar(0, text.length() + 1));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, CharTrainer(text, smallModel(), training(1, 4, 1e-3, 1)));
    CharWeights broken = trainer.weights();
    broken.outputBias.pop_back();
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, CharTrainer(text, broken, training(32, 4, 1e-3, 1)));
    CharWeights damaged = trainer.weights();
    damaged.layers[0].hiddenWeights[3] = std::numeric_limits<float>::quiet_NaN();
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, CharTrainer(text, damaged, training(32, 4, 1e-3, 1)));
}

void TestCharTrainer::wholeLineWithSgdStepsAsLibTorch_data()
{
    QTest::addColumn<double>("momentum");
    QTest::newRow("plain SGD") << 0.0;
    QTest::newRow("momentum 0.9") << 0.9;
}

// The course's character exercise: a tanh RNN on one-hot characters, the whole line one sequence
// each step (full backpropagation through time from a zero state), plain SGD. Three epochs against
// LibTorch's RNN, Linear, autograd and torch::optim::SGD from the same weights on the same line.
void TestCharTrainer::wholeLineWithSgdStepsAsLibTorch()
{
    QFETCH(double, momentum);
    const std::string line = "hello world, hello attention";
    const CharText text = buildCharText(line, 0.0, 8);
    CharTrainingConfig settings = training(8, 4, 0.05, 3);
    settings.wholeText = true;
    settings.optimizer = CharOptimizer::Sgd;
    settings.momentum = momentum;
    settings.clip = 0;
    const CharModelConfig model{RecurrentCell::Rnn, 12, 1, 0};
    const CharWeights start = CharTrainer(text, model, settings).weights();
    CharTrainer trainer(text, start, settings);
    std::vector<CharProgress> windows;
    trainer.train({[&](const CharProgress &p) { windows.push_back(p); }, {}});
    QCOMPARE(int(windows.size()), 3);  // one window an epoch
    QCOMPARE(windows.front().windowsPerEpoch, int64_t(1));

    const int v = text.alphabetSize(), n = int(text.length());
    const auto tensor = [](const std::vector<float> &values, std::vector<int64_t> shape) {
        return torch::from_blob(const_cast<float *>(values.data()), shape).clone().set_requires_grad(true);
    };
    const CharLayerWeights &l = start.layers[0];
    torch::nn::RNN rnn(torch::nn::RNNOptions(v, 12));
    torch::nn::Linear output(12, v);
    {
        torch::NoGradGuard noGradients;
        rnn->named_parameters()["weight_ih_l0"].copy_(tensor(l.inputWeights, {12, v}));
        rnn->named_parameters()["weight_hh_l0"].copy_(tensor(l.hiddenWeights, {12, 12}));
        rnn->named_parameters()["bias_ih_l0"].copy_(tensor(l.inputBias, {12}));
        rnn->named_parameters()["bias_hh_l0"].copy_(tensor(l.hiddenBias, {12}));
        output->weight.copy_(tensor(start.outputWeights, {v, 12}));
        output->bias.copy_(tensor(start.outputBias, {v}));
    }
    std::vector<int64_t> ids(text.ids.begin(), text.ids.end());
    const torch::Tensor all = torch::tensor(ids);
    const torch::Tensor inputs = torch::one_hot(all.slice(0, 0, n - 1), v).to(torch::kFloat).unsqueeze(1);
    const torch::Tensor targets = all.slice(0, 1, n);
    std::vector<torch::Tensor> parameters = rnn->parameters();
    parameters.push_back(output->weight);
    parameters.push_back(output->bias);
    torch::optim::SGD sgd(parameters, torch::optim::SGDOptions(0.05).momentum(momentum));
    for (int step = 0; step < 3; ++step) {
        sgd.zero_grad();
        const torch::Tensor states = std::get<0>(rnn->forward(inputs)).squeeze(1);  // from a zero state
        torch::nn::functional::cross_entropy(output->forward(states), targets).backward();
        sgd.step();
    }
    const CharWeights mine = trainer.weights();
    std::vector<float> expected;
    for (const torch::Tensor &p : parameters)
        expected.insert(expected.end(), p.data_ptr<float>(), p.data_ptr<float>() + p.numel());
    const std::vector<float> got = flat(mine);
    QCOMPARE(got.size(), expected.size());
    const std::vector<float> initial = flat(start);
    float largest = 0, moved = 0;
    for (std::size_t i = 0; i < got.size(); ++i) {
        largest = std::max(largest, std::abs(got[i] - expected[i]));
        moved = std::max(moved, std::abs(got[i] - initial[i]));
    }
    QVERIFY2(largest < 1e-5f, qPrintable(QString::number(largest)));
    QVERIFY(moved > 1e-3f);  // the steps were taken
}

void TestCharTrainer::wholeTextIsRefusedForLongTexts()
{
    const CharText text = buildCharText(builtInLongText(), 0.0, 32);
    QVERIFY(text.trainLength > kMaxWholeTextLength);
    CharTrainingConfig settings = training(32, 4, 1e-3, 1);
    settings.wholeText = true;
    try {
        CharTrainer trainer(text, smallModel(), settings);
        QFAIL("a long text was accepted for whole-text training");
    } catch (const std::invalid_argument &e) {
        QVERIFY2(QString(e.what()).contains("Train it in windows"), e.what());
    }
}

ATTNSCOPE_TEST(chartrainer, TestCharTrainer)
#include "tst_chartrainer.moc"
