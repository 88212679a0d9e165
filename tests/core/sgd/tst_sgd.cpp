#include "tests/common/testregistry.h"
#include "engine/core/sgd.h"
#include "tests/common/referencesteps.h"
#include "tests/common/scaledsteps.h"

#include <QtTest>

// The hand-written SGD must follow torch::optim::SGD step for step.
class TestSgd : public QObject
{
    Q_OBJECT
private slots:
    void matchesTorchSgd_data();
    void matchesTorchSgd();
    void aScaledStepIsAClippedStep();
};

void TestSgd::matchesTorchSgd_data()
{
    QTest::addColumn<double>("learningRate");
    QTest::addColumn<double>("momentum");
    QTest::addColumn<double>("weightDecay");
    QTest::newRow("plain") << 0.01 << 0.0 << 0.0;
    QTest::newRow("momentum") << 0.01 << 0.9 << 0.0;
    QTest::newRow("momentum and weight decay") << 0.05 << 0.5 << 0.01;
}

void TestSgd::matchesTorchSgd()
{
    QFETCH(double, learningRate);
    QFETCH(double, momentum);
    QFETCH(double, weightDecay);
    torch::manual_seed(7);
    std::vector<torch::Tensor> mine, theirs, targets;
    for (const std::vector<int64_t> &shape : {std::vector<int64_t>{5, 4}, std::vector<int64_t>{3}}) {
        mine.push_back(torch::randn(shape, torch::requires_grad()));
        theirs.push_back(mine.back().detach().clone().requires_grad_(true));
        targets.push_back(torch::randn(shape));
    }
    Sgd sgd(mine, {learningRate, momentum, weightDecay});
    torch::optim::SGD reference(theirs,
                                torch::optim::SGDOptions(learningRate).momentum(momentum).weight_decay(weightDecay));
    const auto loss = [&](const std::vector<torch::Tensor> &params) {
        torch::Tensor sum = torch::zeros({});
        for (std::size_t i = 0; i < params.size(); ++i)
            sum = sum + (params[i] - targets[i]).pow(2).sum() + params[i].sin().sum();
        return sum;
    };
    const QString problem = stepAlongsideLibTorch(
        mine, theirs, [&] { sgd.step(); }, reference, loss, 1e-5, 1e-6);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    for (std::size_t i = 0; i < mine.size(); ++i)
        QVERIFY(!torch::equal(mine[i], targets[i]));  // it did move
}

// step(clipFactor(norm, maxNorm)) takes the step clipGradientNorm followed by step() takes.
void TestSgd::aScaledStepIsAClippedStep()
{
    const double difference = scaledAgainstClippedSteps(
        [](const std::vector<torch::Tensor> &params) { return Sgd(params, {1e-3, 0.9, 0.0}); });
    QVERIFY2(difference < 1e-5, qPrintable(QStringLiteral("largest difference %1").arg(difference)));
}

ATTNSCOPE_TEST(sgd, TestSgd)
#include "tst_sgd.moc"
