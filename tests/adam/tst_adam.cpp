#include "adam.h"

#include <QtTest>

// The hand-written Adam must follow torch::optim::Adam step for step.
class TestAdam : public QObject
{
    Q_OBJECT
private slots:
    void matchesTorchAdam_data();
    void matchesTorchAdam();
};

void TestAdam::matchesTorchAdam_data()
{
    QTest::addColumn<double>("learningRate");
    QTest::addColumn<double>("weightDecay");
    QTest::newRow("default") << 1e-3 << 0.0;
    QTest::newRow("large lr") << 0.1 << 0.0;
    QTest::newRow("weight decay") << 1e-2 << 0.05;
}

void TestAdam::matchesTorchAdam()
{
    QFETCH(double, learningRate);
    QFETCH(double, weightDecay);
    torch::manual_seed(7);
    auto mine = torch::randn({5, 4}, torch::requires_grad());
    auto theirs = mine.detach().clone().requires_grad_(true);
    Adam adam({mine}, {learningRate, 0.9, 0.999, 1e-8, weightDecay});
    torch::optim::Adam reference({theirs}, torch::optim::AdamOptions(learningRate).weight_decay(weightDecay));
    const auto target = torch::randn({5, 4});
    for (int step = 0; step < 25; ++step) {
        adam.zeroGrad();
        reference.zero_grad();
        ((mine - target).pow(3).sum() + mine.sin().sum()).backward();
        ((theirs - target).pow(3).sum() + theirs.sin().sum()).backward();
        adam.step();
        reference.step();
        QVERIFY2(torch::allclose(mine, theirs, 1e-6, 1e-7),
                 qPrintable(QStringLiteral("diverged at step %1").arg(step)));
    }
    QVERIFY(!torch::equal(mine, target));  // it did move
}

QTEST_APPLESS_MAIN(TestAdam)
#include "tst_adam.moc"
