#include "tests/common/testregistry.h"
#include "engine/fast/grustep.h"

#include <QtTest>

#include <random>
#include <vector>

namespace {

std::vector<float> randomRow(std::mt19937 &generator, int64_t size, float low, float high)
{
    std::uniform_real_distribution<float> value(low, high);
    std::vector<float> row(static_cast<size_t>(size));
    for (float &v : row)
        v = value(generator);
    return row;
}

}

// The hand-written GRU step gives what torch::nn::GRU gives for one time step.
class TestGruStep : public QObject
{
    Q_OBJECT
private slots:
    void matchesTorchGru_data();
    void matchesTorchGru();
    void gradientsMatchTorchGru();
    void cellAddingBiasesMatchesCellOnBiasedProducts_data();
    void cellAddingBiasesMatchesCellOnBiasedProducts();
    void backwardSummingMatchesBackward_data();
    void backwardSummingMatchesBackward();
};

void TestGruStep::matchesTorchGru_data()
{
    QTest::addColumn<int>("batch");
    QTest::addColumn<int>("inputSize");
    QTest::addColumn<int>("hiddenSize");
    QTest::newRow("one sentence") << 1 << 5 << 7;
    QTest::newRow("batch") << 4 << 6 << 3;
    QTest::newRow("default decoder size") << 64 << 384 << 256;
}

void TestGruStep::matchesTorchGru()
{
    QFETCH(int, batch);
    QFETCH(int, inputSize);
    QFETCH(int, hiddenSize);
    torch::manual_seed(11);
    torch::nn::GRU gru(torch::nn::GRUOptions(inputSize, hiddenSize).batch_first(true));
    const auto x = torch::randn({batch, inputSize});
    const auto h = torch::randn({batch, hiddenSize});
    torch::NoGradGuard noGrad;
    auto [output, next] = gru(x.unsqueeze(1), h.unsqueeze(0));
    const auto gi = torch::nn::functional::linear(x, gru->named_parameters()["weight_ih_l0"], gru->named_parameters()["bias_ih_l0"]);
    const auto gh = torch::nn::functional::linear(h, gru->named_parameters()["weight_hh_l0"], gru->named_parameters()["bias_hh_l0"]);
    const auto mine = gruStep(gi, gh, h);
    QCOMPARE(mine.sizes(), (torch::IntArrayRef{batch, hiddenSize}));
    QVERIFY(torch::allclose(mine, next[0], 1e-5, 1e-5));
    QVERIFY(torch::allclose(mine, output.squeeze(1), 1e-5, 1e-5));
}

void TestGruStep::gradientsMatchTorchGru()
{
    torch::manual_seed(12);
    torch::nn::GRU gru(torch::nn::GRUOptions(4, 5).batch_first(true));
    const auto x = torch::randn({3, 4});
    const auto h = torch::randn({3, 5}).requires_grad_(true);
    auto [output, next] = gru(x.unsqueeze(1), h.unsqueeze(0));
    next.pow(2).sum().backward();
    const auto expectedWeightGrad = gru->named_parameters()["weight_hh_l0"].grad().clone();
    const auto expectedStateGrad = h.grad().clone();
    gru->zero_grad();
    h.mutable_grad().zero_();
    const auto gi = torch::nn::functional::linear(x, gru->named_parameters()["weight_ih_l0"], gru->named_parameters()["bias_ih_l0"]);
    const auto gh = torch::nn::functional::linear(h, gru->named_parameters()["weight_hh_l0"], gru->named_parameters()["bias_hh_l0"]);
    gruStep(gi, gh, h).pow(2).sum().backward();
    QVERIFY(torch::allclose(gru->named_parameters()["weight_hh_l0"].grad(), expectedWeightGrad, 1e-5, 1e-5));
    QVERIFY(torch::allclose(h.grad(), expectedStateGrad, 1e-5, 1e-5));
}

void TestGruStep::cellAddingBiasesMatchesCellOnBiasedProducts_data()
{
    QTest::addColumn<int>("units");
    QTest::newRow("not a whole vector") << 37;
    QTest::newRow("character model") << 256;
}

// The training form takes the products without their biases; it must give the very floats
// gruCell gives from the biased products, and keep W_hn h + b_hn for backward.
void TestGruStep::cellAddingBiasesMatchesCellOnBiasedProducts()
{
    QFETCH(int, units);
    const int64_t n = units;
    std::mt19937 generator(5);
    const auto inputGates = randomRow(generator, 3 * n, -3, 3), hiddenGates = randomRow(generator, 3 * n, -3, 3);
    const auto inputBias = randomRow(generator, 3 * n, -1, 1), hiddenBias = randomRow(generator, 3 * n, -1, 1);
    const auto previous = randomRow(generator, n, -1, 1);
    std::vector<float> biasedInput(inputGates.size()), biasedHidden(hiddenGates.size());
    for (size_t i = 0; i < inputGates.size(); ++i) {
        biasedInput[i] = inputGates[i] + inputBias[i];
        biasedHidden[i] = hiddenGates[i] + hiddenBias[i];
    }
    std::vector<float> expectedHidden = previous, expectedGates(static_cast<size_t>(3 * n));
    gruCell(biasedInput.data(), biasedHidden.data(), expectedHidden.data(), expectedGates.data(), n);

    std::vector<float> next(static_cast<size_t>(n)), gates(static_cast<size_t>(3 * n)), hiddenN(static_cast<size_t>(n));
    gruCellAddingBiases(inputGates.data(), inputBias.data(), hiddenGates.data(), hiddenBias.data(), previous.data(),
                        next.data(), gates.data(), hiddenN.data(), n);
    QCOMPARE(next, expectedHidden);
    QCOMPARE(gates, expectedGates);
    QCOMPARE(hiddenN, std::vector<float>(biasedHidden.begin() + 2 * n, biasedHidden.end()));
}

void TestGruStep::backwardSummingMatchesBackward_data()
{
    QTest::addColumn<int>("units");
    QTest::addColumn<bool>("withInputGates");
    QTest::newRow("not a whole vector") << 37 << true;
    QTest::newRow("sums alone") << 37 << false;
    QTest::newRow("character model") << 256 << true;
}

// Two rows through the summing form: each row's gradients as gruCellBackward gives them, and the
// sums grown by exactly those, row after row.
void TestGruStep::backwardSummingMatchesBackward()
{
    QFETCH(int, units);
    QFETCH(bool, withInputGates);
    const int64_t n = units;
    std::mt19937 generator(6);
    auto inputSums = randomRow(generator, 3 * n, -1, 1), hiddenSums = randomRow(generator, 3 * n, -1, 1);
    auto expectedInputSums = inputSums, expectedHiddenSums = hiddenSums;
    for (int row = 0; row < 2; ++row) {
        const auto gates = randomRow(generator, 3 * n, 0.01f, 0.99f), hiddenGates = randomRow(generator, 3 * n, -2, 2);
        const auto hidden = randomRow(generator, n, -1, 1), dNext = randomRow(generator, n, -1, 1);
        const size_t gateCount = static_cast<size_t>(3 * n), unitCount = static_cast<size_t>(n);
        std::vector<float> expectedDInput(gateCount), expectedDHiddenGates(gateCount), expectedDHidden(unitCount);
        gruCellBackward(gates.data(), hiddenGates.data(), hidden.data(), dNext.data(), expectedDInput.data(),
                        expectedDHiddenGates.data(), expectedDHidden.data(), n);
        for (size_t i = 0; i < expectedInputSums.size(); ++i) {
            expectedInputSums[i] += expectedDInput[i];
            expectedHiddenSums[i] += expectedDHiddenGates[i];
        }

        std::vector<float> dInput(gateCount, -7.0f), dHiddenGates(gateCount), dHidden(unitCount);
        gruCellBackwardSumming(gates.data(), hiddenGates.data() + 2 * n, hidden.data(), dNext.data(),
                               withInputGates ? dInput.data() : nullptr, inputSums.data(), dHiddenGates.data(),
                               hiddenSums.data(), dHidden.data(), n);
        QCOMPARE(dHiddenGates, expectedDHiddenGates);
        QCOMPARE(dHidden, expectedDHidden);
        QCOMPARE(dInput, withInputGates ? expectedDInput : std::vector<float>(gateCount, -7.0f));
    }
    QCOMPARE(inputSums, expectedInputSums);
    QCOMPARE(hiddenSums, expectedHiddenSums);
}

ATTNSCOPE_TEST(grustep, TestGruStep)
#include "tst_grustep.moc"
