#include "tests/common/testregistry.h"
#include "engine/attention/outputlayerpasses.h"
#include "engine/core/batch.h"
#include "tests/common/tinymodel.h"

#include <QtTest>

#include <random>

Q_DECLARE_METATYPE(AttentionKind)
Q_DECLARE_METATYPE(PointerMode)

namespace {

using namespace outputlayerpasses;

struct Setup {
    Dataset data;
    std::unique_ptr<Seq2SeqModel> model;
    Batch batch;
    StepTargets targets;
    double tokens = 0;
};

// Sentences of 2 to 5 words, some hidden as <UNK> so that a pointer has words to copy.
Setup setup(AttentionKind attention, PointerMode pointer)
{
    Setup s;
    const DatasetConfig d = tinyDataset();
    s.data = Dataset::build(d);
    ModelConfig m = tinyModelConfig();
    m.attention = attention;
    m.pointer = pointer;
    s.model = std::make_unique<Seq2SeqModel>(Seq2SeqModel::forDataset(m, s.data, d, 5));
    std::vector<const SentencePair *> pairs;
    for (std::size_t i = 0; i < 24; ++i)
        pairs.push_back(&s.data.train[i]);
    std::mt19937_64 rng(7);
    s.batch = makeBatch(pairs, s.model->vocabulary(), 0.3, &rng);
    const auto fromStep1 = [](const torch::Tensor &t) { return t.slice(1, 1); };
    s.targets = {fromStep1(s.batch.target), fromStep1(s.batch.targetExtended), s.batch.sourceExtended};
    s.tokens = double((s.targets.target != Vocabulary::kPad).sum().item<int64_t>());
    return s;
}

// The loss and every parameter's gradient after one backwardTokenLoss() with `floats` per pass.
std::pair<double, std::vector<torch::Tensor>> lossAndGradients(Setup &s, int64_t floats)
{
    Seq2SeqNet &net = s.model->net();
    net->train();
    net->zero_grad();
    const FusedDecoderWeights w = net->decoder->fusedWeights();
    const DecoderStates states = net->decoderStates(w, s.batch.source, s.batch.sourceLengths, s.batch.target,
                                                    [] { return true; }, s.batch.sourceExtended);
    const double loss = backwardTokenLoss(net, w, states, s.targets, s.tokens, floats);
    std::vector<torch::Tensor> gradients;
    for (const torch::Tensor &p : net->parameters())
        gradients.push_back(p.grad().defined() ? p.grad().clone() : torch::zeros_like(p));
    return {loss, gradients};
}

FreeRunningScore freeRunning(Setup &s, int64_t floats)
{
    Seq2SeqNet &net = s.model->net();
    net->eval();
    torch::NoGradGuard noGrad;
    const FusedDecoderWeights w = net->decoder->fusedWeights();
    const DecoderStates states = net->decoderStates(w, s.batch.source, s.batch.sourceLengths, s.batch.target,
                                                    [] { return false; }, s.batch.sourceExtended);
    return scoreFreeRunning(net, w, states, s.targets, floats);
}

}

// The output layer over a few steps at a time trains and scores exactly as over all steps at once.
class TestOutputLayerPasses : public QObject
{
    Q_OBJECT
private slots:
    void passesCoverAtLeastOneStep();
    void rangesGiveTheGradientsOfOnePass_data();
    void rangesGiveTheGradientsOfOnePass();
    void rangesScoreAsOnePass_data() { rangesGiveTheGradientsOfOnePass_data(); }
    void rangesScoreAsOnePass();
    void everyWeightTakesOneSum();
};

void TestOutputLayerPasses::passesCoverAtLeastOneStep()
{
    QCOMPARE(stepsPerPass(64, 3681), 4);  // the fortunes corpus's vocabulary, a shard of 64 rows
    QCOMPARE(stepsPerPass(64, 38), 431);   // the synthetic task's: every step in one pass
    QCOMPARE(stepsPerPass(4096, 10000), 1);
    QCOMPARE(stepsPerPass(10, 10, 250), 2);
}

void TestOutputLayerPasses::rangesGiveTheGradientsOfOnePass_data()
{
    QTest::addColumn<AttentionKind>("attention");
    QTest::addColumn<PointerMode>("pointer");
    QTest::newRow("location, pointer") << AttentionKind::Location << PointerMode::On;
    QTest::newRow("bahdanau") << AttentionKind::Bahdanau << PointerMode::Off;
    // Its output layer reads only the top layer: the context has no gradient of its own.
    QTest::newRow("luong dot") << AttentionKind::LuongDot << PointerMode::Off;
}

void TestOutputLayerPasses::rangesGiveTheGradientsOfOnePass()
{
    QFETCH(AttentionKind, attention);
    QFETCH(PointerMode, pointer);
    Setup s = setup(attention, pointer);
    const int64_t rows = s.batch.size(), steps = s.targets.target.size(1);
    const int64_t vocabulary = s.model->vocabulary().size();
    QVERIFY(steps >= 5);
    const int64_t twoSteps = 2 * rows * vocabulary;
    QCOMPARE(stepsPerPass(rows, vocabulary, twoSteps), 2);

    const auto [whole, wholeGradients] = lossAndGradients(s, steps * rows * vocabulary);
    const auto [ranged, rangedGradients] = lossAndGradients(s, twoSteps);
    QVERIFY(whole > 0.1);
    QVERIFY2(std::abs(whole - ranged) < 1e-5 * whole, qPrintable(QString("%1 vs %2").arg(whole).arg(ranged)));
    const auto names = s.model->net()->named_parameters();
    QCOMPARE(rangedGradients.size(), wholeGradients.size());
    for (std::size_t i = 0; i < wholeGradients.size(); ++i) {
        const std::string &name = names[i].key();
        QVERIFY2(wholeGradients[i].abs().sum().item<double>() > 0 || name.find("copy") != std::string::npos,
                 name.c_str());
        QVERIFY2(torch::allclose(rangedGradients[i], wholeGradients[i], 1e-4, 1e-6), name.c_str());
    }
}

void TestOutputLayerPasses::rangesScoreAsOnePass()
{
    QFETCH(AttentionKind, attention);
    QFETCH(PointerMode, pointer);
    Setup s = setup(attention, pointer);
    const int64_t rows = s.batch.size(), vocabulary = s.model->vocabulary().size();
    const FreeRunningScore whole = freeRunning(s, 100 * rows * vocabulary);
    const FreeRunningScore ranged = freeRunning(s, rows * vocabulary);
    QCOMPARE(ranged.tokens, whole.tokens);
    QCOMPARE(whole.tokens, int64_t(s.tokens));
    QCOMPARE(ranged.exactRows, whole.exactRows);
    QVERIFY(std::abs(ranged.lossSum - whole.lossSum) < 1e-5 * whole.lossSum);
}

// Shards on two threads add their gradients to the same weights in either order: a run repeats
// exactly only if each shard adds one sum to each weight, as a single pass does, however many
// ranges it ran.
void TestOutputLayerPasses::everyWeightTakesOneSum()
{
    Setup s = setup(AttentionKind::Location, PointerMode::On);
    Seq2SeqNet &net = s.model->net();
    const int64_t rows = s.batch.size(), vocabulary = s.model->vocabulary().size();
    QVERIFY(s.targets.target.size(1) >= 5);  // three ranges of two steps at least
    std::vector<int> sums;
    for (torch::Tensor &p : net->parameters()) {
        const std::size_t i = sums.size();
        sums.push_back(0);
        p.register_hook([&sums, i](const torch::Tensor &) { ++sums[i]; });
    }
    lossAndGradients(s, 2 * rows * vocabulary);
    const auto names = net->named_parameters();
    for (std::size_t i = 0; i < sums.size(); ++i)
        QVERIFY2(sums[i] == 1, qPrintable(QString("%1: %2 sums").arg(QString::fromStdString(names[i].key())).arg(sums[i])));
}

ATTNSCOPE_TEST(outputlayerpasses, TestOutputLayerPasses)
#include "tst_outputlayerpasses.moc"
