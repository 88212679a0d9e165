#include "tests/common/testregistry.h"
#include "engine/core/adam.h"
#include "tests/common/referencesteps.h"
#include "tests/common/scaledsteps.h"

#include <QtTest>

// The hand-written Adam must follow torch::optim::Adam step for step.
class TestAdam : public QObject
{
    Q_OBJECT
private slots:
    void matchesTorchAdam_data();
    void matchesTorchAdam();
    void aScaledStepIsAClippedStep();
    void onlyContiguousFloatParameters();
};

void TestAdam::matchesTorchAdam_data()
{
    QTest::addColumn<double>("learningRate");
    QTest::addColumn<double>("weightDecay");
    QTest::addColumn<int>("threads");
    QTest::addColumn<bool>("large");
    QTest::newRow("default") << 1e-3 << 0.0 << 1 << false;
    QTest::newRow("large lr") << 0.1 << 0.0 << 1 << false;
    QTest::newRow("weight decay") << 1e-2 << 0.05 << 1 << false;
    QTest::newRow("two threads, too small to share") << 1e-2 << 0.05 << 2 << false;
    // 150,027 values: two threads split the middle parameter between them.
    QTest::newRow("two threads, shared") << 1e-2 << 0.05 << 2 << true;
    QTest::newRow("three threads, shared") << 1e-3 << 0.0 << 3 << true;
}

void TestAdam::matchesTorchAdam()
{
    QFETCH(double, learningRate);
    QFETCH(double, weightDecay);
    QFETCH(int, threads);
    QFETCH(bool, large);
    torch::manual_seed(7);
    std::vector<torch::Tensor> mine, theirs, targets;
    for (const auto &shape : large ? std::vector<std::vector<int64_t>>{{5, 4}, {300, 500}, {7}}
                                   : std::vector<std::vector<int64_t>>{{5, 4}, {3}}) {
        mine.push_back(torch::randn(shape, torch::requires_grad()));
        theirs.push_back(mine.back().detach().clone().requires_grad_(true));
        targets.push_back(torch::randn(shape));
    }
    Adam adam(mine, {learningRate, 0.9, 0.999, 1e-8, weightDecay, threads});
    torch::optim::Adam reference(theirs, torch::optim::AdamOptions(learningRate).weight_decay(weightDecay));
    const auto loss = [&](const std::vector<torch::Tensor> &params) {
        torch::Tensor sum = torch::zeros({});
        for (std::size_t i = 0; i < params.size(); ++i)
            sum = sum + (params[i] - targets[i]).pow(3).sum() + params[i].sin().sum();
        return sum;
    };
    const QString problem = stepAlongsideLibTorch(
        mine, theirs, [&] { adam.step(); }, reference, loss, 1e-6, 1e-7);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    for (std::size_t i = 0; i < mine.size(); ++i)
        QVERIFY(!torch::equal(mine[i], targets[i]));  // it did move
}

// step(clipFactor(norm, maxNorm)) takes the step clipGradientNorm followed by step() takes.
void TestAdam::aScaledStepIsAClippedStep()
{
    const double difference =
        scaledAgainstClippedSteps([](const std::vector<torch::Tensor> &params) {
            return Adam(params, {1e-2, 0.9, 0.999, 1.0, 0.0, 2});
        });
    QVERIFY2(difference < 1e-6, qPrintable(QStringLiteral("largest difference %1").arg(difference)));
}

void TestAdam::onlyContiguousFloatParameters()
{
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, Adam({torch::zeros({3, 2}, torch::kDouble)}, {}));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, Adam({torch::zeros({3, 2}).t()}, {}));
}

ATTNSCOPE_TEST(adam, TestAdam)
#include "tst_adam.moc"
