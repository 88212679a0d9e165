#include "tests/common/testregistry.h"
#include "engine/core/learningrateschedule.h"

#include <QtTest>

#include <cmath>

// The rate at every step: a linear warm-up, then a per-epoch decay spread over the epoch's steps.
class TestLearningRateSchedule : public QObject
{
    Q_OBJECT
private slots:
    void warmUpRisesLinearlyToTheBase();
    void decaysSmoothlyByTheEpochFactor();
    void scaleMultipliesLaterRates();
};

void TestLearningRateSchedule::warmUpRisesLinearlyToTheBase()
{
    const LearningRateSchedule schedule(2e-3, 4, 1.0);
    QCOMPARE(schedule.at(0, 0), 0.5e-3);
    QCOMPARE(schedule.at(1, 0), 1e-3);
    QCOMPARE(schedule.at(3, 0), 2e-3);
    QCOMPARE(schedule.at(40, 0), 2e-3);
    QCOMPARE(LearningRateSchedule(2e-3, 0, 1.0).at(0, 0), 2e-3);
}

void TestLearningRateSchedule::decaysSmoothlyByTheEpochFactor()
{
    const LearningRateSchedule schedule(1e-3, 0, 0.25);
    QCOMPARE(schedule.at(10, 0.0), 1e-3);
    QVERIFY(std::abs(schedule.at(10, 0.5) - 0.5e-3) < 1e-15);  // 0.25^(1/2)
    QVERIFY(std::abs(schedule.at(10, 1.0) - 0.25e-3) < 1e-15);
    QVERIFY(std::abs(schedule.at(10, 2.0) - 0.0625e-3) < 1e-15);
    // Warm-up and decay together: the product of both.
    const LearningRateSchedule both(1e-3, 10, 0.25);
    QVERIFY(std::abs(both.at(4, 0.5) - 0.5 * 0.5e-3) < 1e-15);
}

void TestLearningRateSchedule::scaleMultipliesLaterRates()
{
    LearningRateSchedule schedule(1e-3, 0, 0.5);
    const double before = schedule.at(5, 1.0);
    schedule.scale(0.1);
    QVERIFY(std::abs(schedule.at(5, 1.0) - 0.1 * before) < 1e-15);
}

ATTNSCOPE_TEST(learningrateschedule, TestLearningRateSchedule)
#include "tst_learningrateschedule.moc"
