#include "tests/common/testregistry.h"
#include "engine/core/adagrad.h"
#include "tests/common/referencesteps.h"
#include "tests/common/scaledsteps.h"

#include <QtTest>

// The hand-written Adagrad must follow torch::optim::Adagrad (its defaults) step for step.
class TestAdagrad : public QObject
{
    Q_OBJECT
private slots:
    void matchesTorchAdagrad_data();
    void matchesTorchAdagrad();
    void aScaledStepIsAClippedStep();
    void onlyContiguousFloatParameters();
};

void TestAdagrad::matchesTorchAdagrad_data()
{
    QTest::addColumn<double>("learningRate");
    QTest::addColumn<double>("eps");
    QTest::addColumn<int>("threads");
    QTest::addColumn<bool>("large");
    QTest::newRow("default") << 1e-2 << 1e-10 << 1 << false;
    QTest::newRow("large lr") << 0.5 << 1e-10 << 1 << false;
    QTest::newRow("large eps") << 0.1 << 1e-1 << 1 << false;
    QTest::newRow("two threads, too small to share") << 1e-2 << 1e-10 << 2 << false;
    // 150,027 values: two threads split the middle parameter between them.
    QTest::newRow("two threads, shared") << 1e-2 << 1e-10 << 2 << true;
    QTest::newRow("three threads, shared") << 1e-3 << 1e-10 << 3 << true;
}

void TestAdagrad::matchesTorchAdagrad()
{
    QFETCH(double, learningRate);
    QFETCH(double, eps);
    QFETCH(int, threads);
    QFETCH(bool, large);
    torch::manual_seed(8);
    std::vector<torch::Tensor> mine, theirs, targets;
    for (const auto &shape : large ? std::vector<std::vector<int64_t>>{{5, 4}, {300, 500}, {7}}
                                   : std::vector<std::vector<int64_t>>{{5, 4}, {3}}) {
        mine.push_back(torch::randn(shape, torch::requires_grad()));
        theirs.push_back(mine.back().detach().clone().requires_grad_(true));
        targets.push_back(torch::randn(shape));
    }
    Adagrad adagrad(mine, {learningRate, eps, threads});
    torch::optim::Adagrad reference(theirs, torch::optim::AdagradOptions(learningRate).eps(eps));
    const auto loss = [&](const std::vector<torch::Tensor> &params) {
        torch::Tensor sum = torch::zeros({});
        for (std::size_t i = 0; i < params.size(); ++i)
            sum = sum + (params[i] - targets[i]).pow(3).sum() + params[i].sin().sum();
        return sum;
    };
    const QString problem = stepAlongsideLibTorch(
        mine, theirs, [&] { adagrad.step(); }, reference, loss, 1e-6, 1e-7);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    for (std::size_t i = 0; i < mine.size(); ++i)
        QVERIFY(!torch::equal(mine[i], targets[i]));  // it did move
}

// step(clipFactor(norm, maxNorm)) takes the step clipGradientNorm followed by step() takes.
void TestAdagrad::aScaledStepIsAClippedStep()
{
    const double difference =
        scaledAgainstClippedSteps([](const std::vector<torch::Tensor> &params) {
            return Adagrad(params, {1e-2, 1.0, 2});
        });
    QVERIFY2(difference < 1e-6, qPrintable(QStringLiteral("largest difference %1").arg(difference)));
}

void TestAdagrad::onlyContiguousFloatParameters()
{
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, Adagrad({torch::zeros({3, 2}, torch::kDouble)}, {}));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, Adagrad({torch::zeros({3, 2}).t()}, {}));
}

ATTNSCOPE_TEST(adagrad, TestAdagrad)
#include "tst_adagrad.moc"
