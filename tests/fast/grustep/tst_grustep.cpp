#include "engine/fast/grustep.h"

#include <QtTest>

// The hand-written GRU step gives what torch::nn::GRU gives for one time step.
class TestGruStep : public QObject
{
    Q_OBJECT
private slots:
    void matchesTorchGru_data();
    void matchesTorchGru();
    void gradientsMatchTorchGru();
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

QTEST_MAIN(TestGruStep)
#include "tst_grustep.moc"
