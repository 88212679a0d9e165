#include "tests/common/testregistry.h"
#include "tests/common/tinytransformer.h"
#include "engine/core/corpusdefaults.h"
#include "engine/core/dataset.h"
#include "engine/transformer/transformermodel.h"
#include "engine/transformer/transformernet.h"
#include "engine/transformer/transformertrainer.h"

#include <QtTest>

#include <cmath>
#include <limits>

namespace {

// Digit sequences of 3 to 5: a task a one-layer Transformer learns in a few seconds.
DatasetConfig digits()
{
    DatasetConfig config;
    config.words = DatasetConfig::digitWords();
    config.minLength = 3;
    config.maxLength = 5;
    config.trainSize = 3000;
    config.valSize = 200;
    config.testSize = 200;
    return config;
}

TransformerConfig small()
{
    return tinyTransformer(1, 4, 32, 64);
}

TransformerTrainingConfig quick(int epochs)
{
    TransformerTrainingConfig config;
    config.epochs = epochs;
    config.warmupSteps = 20;
    config.learningRate = 3e-3;
    config.epochDecay = 1;
    config.threads = 1;
    return config;
}

std::vector<double> validationLosses(const TransformerModel &model)
{
    std::vector<double> losses;
    for (const EpochStats &stats : model.history)
        losses.push_back(stats.valLoss);
    return losses;
}

}  // namespace

// Training reverses sentences, repeats under one seed, keeps the best epoch, stops when asked and
// refuses what it cannot train.
class TestTransformerTrainer : public QObject
{
    Q_OBJECT
private slots:
    void learnsToReverse();
    void sameSeedTrainsTheSameModel_data();
    void sameSeedTrainsTheSameModel();
    void stopKeepsTheBestEpochSoFar();
    void notFiniteLossStopsWithAClearError();
    void badSettingsAreRefused();
    void warmUpRisesThenHoldsOrFalls();
};

void TestTransformerTrainer::learnsToReverse()
{
    const Dataset data = Dataset::build(digits());
    TransformerModel model(small(), vocabularyFor(data, digits()), Task::Reverse, 1);
    const TransformerScore before = model.score(data.test);
    TransformerTrainer trainer(model, data, quick(10));
    int batches = 0;
    std::vector<bool> best;
    const TransformerRun run = trainer.run({[&](const BatchProgress &) { ++batches; },
                                            [&](const EpochStats &, bool isBest) { best.push_back(isBest); }});
    QCOMPARE(run.epochsDone, 10);
    QCOMPARE(int(model.history.size()), 10);
    QCOMPARE(batches, 10 * int(std::ceil(3000.0 / 64)));
    QVERIFY(best.front());
    const TransformerScore after = model.score(data.test);
    qInfo("test exact match %.3f before training, %.3f after", before.exactMatch(), after.exactMatch());
    QVERIFY(before.exactMatch() < 0.05);
    QVERIFY2(after.exactMatch() > 0.9, qPrintable(QString::number(after.exactMatch())));
    QVERIFY(model.history.back().valLoss < model.history.front().valLoss);

    // The decoded sentence, its tokens and every attention's shape.
    const TransformerOutput output = model.decode({"3", "1", "4", "1"});
    QCOMPARE(output.sourceTokens, (std::vector<std::string>{"3", "1", "4", "1", "<EOS>"}));
    QCOMPARE(output.outputTokens, (std::vector<std::string>{"1", "4", "1", "3", "<EOS>"}));
    QCOMPARE(int(output.cross.weights.size()), 1);
    QCOMPARE(int(output.cross.weights[0].size()), 4);
    QCOMPARE(output.cross.rows, 5);
    QCOMPARE(output.cross.columns, 5);
    QCOMPARE(output.decoderSelf.rows, 5);
    QCOMPARE(output.decoderSelf.columns, 5);
    QCOMPARE(output.encoderSelf.rows, 5);
    for (const std::vector<float> &head : output.cross.weights[0]) {
        double rowSum = 0;
        for (int column = 0; column < 5; ++column)
            rowSum += head[column];
        QVERIFY(std::abs(rowSum - 1) < 1e-5);
    }
    QCOMPARE(output.decoderSelf.weights[0][0][1], 0.0f);  // the first output cannot see the second
}

void TestTransformerTrainer::sameSeedTrainsTheSameModel_data()
{
    QTest::addColumn<int>("threads");
    QTest::addColumn<double>("dropout");
    QTest::newRow("one thread") << 1 << 0.0;
    // Two shards at once, each drawing its dropout masks from a stream of its own.
    QTest::newRow("two threads, dropout") << 2 << 0.1;
}

void TestTransformerTrainer::sameSeedTrainsTheSameModel()
{
    QFETCH(int, threads);
    QFETCH(double, dropout);
    const Dataset data = Dataset::build(digits());
    TransformerConfig shape = small();
    shape.dropout = dropout;
    TransformerTrainingConfig training = quick(1);
    training.threads = threads;
    std::vector<std::vector<double>> runs;
    for (int run = 0; run < 3; ++run) {
        TransformerModel model(shape, vocabularyFor(data, digits()), Task::Reverse, 5);
        TransformerTrainer(model, data, training).run();
        runs.push_back(validationLosses(model));
        runs.back().push_back(model.history.back().trainLoss);
    }
    QCOMPARE(runs[0], runs[1]);
    QCOMPARE(runs[0], runs[2]);
}

void TestTransformerTrainer::stopKeepsTheBestEpochSoFar()
{
    const Dataset data = Dataset::build(digits());
    TransformerModel model(small(), vocabularyFor(data, digits()), Task::Reverse, 2);
    std::atomic<bool> stop{false};
    std::vector<torch::Tensor> afterFirstEpoch;
    TransformerTrainer trainer(model, data, quick(5));
    const TransformerRun run = trainer.run({[&](const BatchProgress &progress) {
                                                if (progress.epoch == 2 && progress.batch == 10)
                                                    stop = true;
                                            },
                                            [&](const EpochStats &, bool) {
                                                for (const torch::Tensor &p : model.net().parameters())
                                                    afterFirstEpoch.push_back(p.detach().clone());
                                            }},
                                           &stop);
    QVERIFY(run.stopped);
    QCOMPARE(run.epochsDone, 1);
    QCOMPARE(run.bestEpoch, 1);
    const std::vector<torch::Tensor> now = model.net().parameters();
    QCOMPARE(now.size(), afterFirstEpoch.size());
    for (std::size_t i = 0; i < now.size(); ++i)
        QVERIFY(torch::equal(now[i], afterFirstEpoch[i]));
    QVERIFY(!model.net().is_training());
}

void TestTransformerTrainer::notFiniteLossStopsWithAClearError()
{
    const Dataset data = Dataset::build(digits());
    TransformerModel model(small(), vocabularyFor(data, digits()), Task::Reverse, 3);
    {
        torch::NoGradGuard noGrad;
        model.net().output->bias[4] = std::numeric_limits<float>::quiet_NaN();
    }
    TransformerTrainer trainer(model, data, quick(1));
    try {
        trainer.run();
        QFAIL("a NaN loss trained on");
    } catch (const std::runtime_error &error) {
        QVERIFY(QString::fromUtf8(error.what()).contains(QStringLiteral("diverged")));
    }
}

void TestTransformerTrainer::badSettingsAreRefused()
{
    const Dataset data = Dataset::build(digits());
    TransformerModel model(small(), vocabularyFor(data, digits()), Task::Reverse, 3);
    TransformerTrainingConfig config = quick(1);
    config.batchSize = 0;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, TransformerTrainer(model, data, config));
    Dataset empty = data;
    empty.val.clear();
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, TransformerTrainer(model, empty, quick(1)));
}

void TestTransformerTrainer::warmUpRisesThenHoldsOrFalls()
{
    TransformerTrainingConfig config;
    config.learningRate = 1e-3;
    config.warmupSteps = 200;
    config.epochDecay = 1;
    QCOMPARE(learningRateAt(config, 0, 0), 1e-3 / 200);
    QCOMPARE(learningRateAt(config, 99, 0), 1e-3 * 100 / 200);
    QCOMPARE(learningRateAt(config, 199, 0), 1e-3);
    QCOMPARE(learningRateAt(config, 5000, 3), 1e-3);
    config.schedule = WarmupSchedule::InverseSquareRoot;
    QCOMPARE(learningRateAt(config, 199, 0), 1e-3);
    QVERIFY(std::abs(learningRateAt(config, 799, 0) - 1e-3 / 2) < 1e-12);
    config.schedule = WarmupSchedule::Constant;
    config.epochDecay = 0.5;
    QVERIFY(std::abs(learningRateAt(config, 5000, 2.5) - 1e-3 * std::pow(0.5, 2.5)) < 1e-15);
}

ATTNSCOPE_TEST(transformertrainer, TestTransformerTrainer)
#include "tst_transformertrainer.moc"
