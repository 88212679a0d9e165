#include "tests/common/testregistry.h"
#include "engine/attention/evaluation.h"
#include "engine/attention/seq2seqnet.h"
#include "engine/core/validationfall.h"
#include "tests/common/tinymodel.h"

#include <QtTest>

#include <cmath>
#include <map>

// The whole training loop: learns the task, reports progress, stops on request, survives divergence.
class TestTrainer : public QObject
{
    Q_OBJECT
private slots:
    void learnsReversalPerfectly();
    void sgdTrainsTheModelToo();
    void isDeterministic_data();
    void isDeterministic();
    void stopFlagEndsTraining();
    void divergenceStopsWithMessage();
    void divergenceKeepsTheBestCheckpoint();
    void savesBestCheckpoint();
    void epochDecayShrinksLaterSteps();
    void epochsRecordTheirStepsAndSayWhyValidationFell();
    void batchGrowsFromItsStart();
    void validationOnTwoThreadsIsGreedyExactMatch();
};

void TestTrainer::learnsReversalPerfectly()
{
    const Dataset data = Dataset::build(tinyDataset());
    Seq2SeqModel model(tinyModelConfig(), Vocabulary::build(data.train), 1);
    int batches = 0;
    std::vector<EpochStats> epochs;
    Trainer::Callbacks callbacks;
    callbacks.onBatch = [&](const BatchProgress &p) {
        ++batches;
        QVERIFY(p.loss > 0 && p.batch >= 1 && p.batch <= p.batchesPerEpoch);
    };
    callbacks.onEpoch = [&](const EpochStats &e, bool) { epochs.push_back(e); };
    const TrainingOutcome outcome = Trainer(model, data, tinyTraining()).run(callbacks);
    QCOMPARE(int(outcome.status), int(TrainingOutcome::Status::Finished));
    QCOMPARE(int(epochs.size()), 20);
    QCOMPARE(batches, 20 * ((1500 + 31) / 32));
    QVERIFY(epochs.back().trainLoss < epochs.front().trainLoss / 5);
    QCOMPARE(int(model.history.size()), 20);
    const EvaluationReport report = evaluate(model, data.test);
    QCOMPARE(report.exactMatch, 1.0);
    QCOMPARE(report.tokenAccuracy, 1.0);
}

// Plain SGD with momentum, the course's rule (the update itself is checked against LibTorch's in
// tst_sgd): the run takes its steps, not Adam's, and the loss falls.
void TestTrainer::sgdTrainsTheModelToo()
{
    const Dataset data = Dataset::build(quickDataset());
    TrainingConfig sgd = quickTraining(5);
    sgd.optimizer = OptimizerKind::Sgd;
    sgd.learningRate = 0.1;
    sgd.momentum = 0.9;
    Seq2SeqModel bySgd(quickModelConfig(), Vocabulary::build(data.train), 1);
    Seq2SeqModel byAdam(quickModelConfig(), Vocabulary::build(data.train), 1);
    std::vector<EpochStats> epochs;
    Trainer::Callbacks callbacks;
    callbacks.onEpoch = [&](const EpochStats &e, bool) { epochs.push_back(e); };
    Trainer(bySgd, data, sgd).run(callbacks);
    Trainer(byAdam, data, quickTraining(5)).run();
    QCOMPARE(int(epochs.size()), 5);
    QVERIFY2(epochs.back().trainLoss < 0.8 * epochs.front().trainLoss,
             qPrintable(QStringLiteral("%1 -> %2").arg(epochs.front().trainLoss).arg(epochs.back().trainLoss)));
    QVERIFY(bySgd.decode({"red", "cat"}).attention != byAdam.decode({"red", "cat"}).attention);
}

void TestTrainer::isDeterministic_data()
{
    QTest::addColumn<int>("threads");
    QTest::addColumn<double>("dropout");
    QTest::newRow("one thread") << 1 << 0.0;
    QTest::newRow("one thread, dropout") << 1 << 0.3;
    // Both shards draw dropout masks at once; each from its own stream, so the timing of the
    // threads cannot change them.
    QTest::newRow("two threads, dropout") << 2 << 0.3;
}

// The same settings and seed train the same weights, bit for bit.
void TestTrainer::isDeterministic()
{
    QFETCH(int, threads);
    QFETCH(double, dropout);
    const Dataset data = Dataset::build(tinyDataset());
    TrainingConfig t = tinyTraining();
    t.epochs = 2;
    t.threads = threads;
    ModelConfig m = tinyModelConfig();
    m.layers = 2;  // dropout between the GRU layers as well as on the embeddings
    m.dropout = dropout;
    std::vector<double> losses[2];
    std::vector<torch::Tensor> weights[2];
    for (int run = 0; run < 2; ++run) {
        Seq2SeqModel model(m, Vocabulary::build(data.train), 1);
        Trainer::Callbacks callbacks;
        callbacks.onBatch = [&](const BatchProgress &p) { losses[run].push_back(p.loss); };
        Trainer(model, data, t).run(callbacks);
        weights[run] = model.net()->parameters();
    }
    QCOMPARE(losses[0], losses[1]);
    QCOMPARE(weights[0].size(), weights[1].size());
    for (std::size_t i = 0; i < weights[0].size(); ++i)
        QVERIFY(torch::equal(weights[0][i], weights[1][i]));
}

void TestTrainer::stopFlagEndsTraining()
{
    const Dataset data = Dataset::build(tinyDataset());
    Seq2SeqModel model(tinyModelConfig(), Vocabulary::build(data.train), 1);
    std::atomic<bool> stop{false};
    int batches = 0;
    Trainer::Callbacks callbacks;
    callbacks.onBatch = [&](const BatchProgress &) {
        if (++batches == 5)
            stop = true;
    };
    const TrainingOutcome outcome = Trainer(model, data, tinyTraining()).run(callbacks, &stop);
    QCOMPARE(int(outcome.status), int(TrainingOutcome::Status::Stopped));
    QCOMPARE(batches, 5);
}

void TestTrainer::divergenceStopsWithMessage()
{
    const Dataset data = Dataset::build(tinyDataset());
    Seq2SeqModel model(tinyModelConfig(), Vocabulary::build(data.train), 1);
    TrainingConfig t = tinyTraining();
    t.learningRate = 10;
    const TrainingOutcome outcome = Trainer(model, data, t).run();
    QCOMPARE(int(outcome.status), int(TrainingOutcome::Status::Diverged));
    QVERIFY(QString::fromStdString(outcome.message).contains("learning rate"));
}

void TestTrainer::divergenceKeepsTheBestCheckpoint()
{
    QTemporaryDir dir;
    const Dataset data = Dataset::build(tinyDataset());
    Seq2SeqModel model(tinyModelConfig(), Vocabulary::build(data.train), 1);
    TrainingConfig t = tinyTraining();
    t.epochs = 2;
    t.checkpointPath = dir.filePath("best.ckpt").toStdString();
    Trainer(model, data, t).run();
    QFile saved(QString::fromStdString(t.checkpointPath));
    QVERIFY(saved.open(QIODevice::ReadOnly));
    const QByteArray before = saved.readAll();
    saved.close();

    // Training on with a learning rate of 10 blows the weights up.
    t.learningRate = 10;
    t.epochs = 5;
    const TrainingOutcome outcome = Trainer(model, data, t).run();
    QCOMPARE(int(outcome.status), int(TrainingOutcome::Status::Diverged));
    QVERIFY(QString::fromStdString(outcome.message).contains("best model so far is kept"));
    QVERIFY(saved.open(QIODevice::ReadOnly));
    QCOMPARE(saved.readAll(), before);
    QCOMPARE(int(Seq2SeqModel::load(t.checkpointPath).history.size()), 2);
}

void TestTrainer::savesBestCheckpoint()
{
    QTemporaryDir dir;
    const Dataset data = Dataset::build(tinyDataset());
    Seq2SeqModel model(tinyModelConfig(), Vocabulary::build(data.train), 1);
    TrainingConfig t = tinyTraining();
    t.epochs = 3;
    t.checkpointPath = dir.filePath("best.ckpt").toStdString();
    const TrainingOutcome outcome = Trainer(model, data, t).run();
    const Seq2SeqModel saved = Seq2SeqModel::load(t.checkpointPath);
    QCOMPARE(int(saved.history.size()), outcome.bestEpoch);
    QCOMPARE(saved.history.back().valLoss, outcome.bestValLoss);
    // After training the model holds the best epoch's weights: the same outputs as the saved file.
    const auto a = model.reverse("red cat sun");
    const auto b = saved.reverse("red cat sun");
    QCOMPARE(a.outputTokens, b.outputTokens);
    QCOMPARE(a.attention, b.attention);
}

// With a per-epoch decay of 1e-6 the second epoch's steps are a millionth of the first's; with 1
// they are as big: how far the weights move in epoch 2 tells the two apart.
void TestTrainer::epochDecayShrinksLaterSteps()
{
    const Dataset data = Dataset::build(tinyDataset());
    double moved[2] = {0, 0};
    const double decays[2] = {1e-6, 1.0};
    for (int run = 0; run < 2; ++run) {
        Seq2SeqModel model(tinyModelConfig(), Vocabulary::build(data.train), 1);
        TrainingConfig t = tinyTraining();
        t.epochs = 2;
        t.learningRateDecay = 1;  // only the per-epoch schedule changes the rate
        t.learningRateEpochDecay = decays[run];
        std::vector<torch::Tensor> afterFirst;
        Trainer::Callbacks callbacks;
        // Read in the callback: when training ends the best epoch's weights are put back.
        callbacks.onEpoch = [&](const EpochStats &e, bool) {
            const auto parameters = model.net()->parameters();
            for (std::size_t i = 0; i < parameters.size(); ++i) {
                if (e.epoch == 1)
                    afterFirst.push_back(parameters[i].detach().clone());
                else
                    moved[run] = std::max(moved[run], (parameters[i].detach() - afterFirst[i]).abs().max().item<double>());
            }
        };
        Trainer(model, data, t).run(callbacks);
    }
    QVERIFY2(moved[0] < 1e-5, qPrintable(QString::number(moved[0])));
    QVERIFY2(moved[1] > 1e-3, qPrintable(QString::number(moved[1])));
}

// Each epoch keeps its last step's learning rate and, with clipping, the mean gradient norm before
// it; a fall of validation exact match past 50% is told with them, a small or early one is not.
void TestTrainer::epochsRecordTheirStepsAndSayWhyValidationFell()
{
    const Dataset data = Dataset::build(tinyDataset());
    for (const double clip : {1.0, 0.0}) {
        Seq2SeqModel model(tinyModelConfig(), Vocabulary::build(data.train), 1);
        TrainingConfig t = tinyTraining();
        t.epochs = 3;
        t.learningRateDecay = 1;
        t.learningRateEpochDecay = 0.5;
        t.warmupSteps = 0;
        t.clipNorm = clip;
        Trainer(model, data, t).run();
        QCOMPARE(int(model.history.size()), 3);
        for (const EpochStats &e : model.history) {
            // The schedule halves the rate each epoch, within it too: the last step is a little under.
            const double start = t.learningRate * std::pow(0.5, e.epoch - 1);
            QVERIFY2(e.learningRate <= start && e.learningRate > start / 2,
                     qPrintable(QString::number(e.learningRate)));
            QVERIFY(clip > 0 ? e.gradientNorm > 0 : e.gradientNorm == 0);
        }
    }

    EpochStats before, after;
    before.valExactMatch = 0.8;
    after.valExactMatch = 0.68;
    after.learningRate = 0.0012;
    after.gradientNorm = 3.41;
    QCOMPARE(validationFall(before, after),
             std::string("val exact fell 12.0 points (lr 0.0012, gradient norm 3.41 before clipping)"));
    after.gradientNorm = 0;
    QCOMPARE(validationFall(before, after), std::string("val exact fell 12.0 points (lr 0.0012)"));
    after.valExactMatch = 0.76;  // four points: within what a steady run moves
    QVERIFY(validationFall(before, after).empty());
    before.valExactMatch = 0.45;  // before 50% it is still finding its way
    after.valExactMatch = 0.2;
    QVERIFY(validationFall(before, after).empty());
}

// --batch-start 4 with --batch 16: batches of 4, 8, then 16 from the third epoch on.
void TestTrainer::batchGrowsFromItsStart()
{
    const Dataset data = Dataset::build(tinyDataset());
    Seq2SeqModel model(tinyModelConfig(), Vocabulary::build(data.train), 1);
    TrainingConfig t = tinyTraining();
    t.epochs = 4;
    t.batchSize = 16;
    t.batchStart = 4;
    std::map<int, int> batches;  // epoch -> batches per epoch
    Trainer::Callbacks callbacks;
    callbacks.onBatch = [&](const BatchProgress &p) { batches[p.epoch] = p.batchesPerEpoch; };
    Trainer(model, data, t).run(callbacks);
    const double sentences = double(data.train.size());
    QCOMPARE(batches.size(), std::size_t(4));
    for (const auto &[epoch, expected] : std::map<int, double>{{1, 4}, {2, 8}, {3, 16}, {4, 16}})
        QVERIFY2(batches[epoch] >= int(std::ceil(sentences / expected)) && batches[epoch] < int(sentences / expected) + 8,
                 qPrintable(QString("epoch %1: %2 batches of %3 sentences").arg(epoch).arg(batches[epoch]).arg(sentences)));
    QVERIFY(batches[1] > batches[2] && batches[2] > batches[3]);
}

// The validation pass splits each batch over the training threads; its exact match must still be
// that of greedy decoding, which evaluate() measures on its own.
void TestTrainer::validationOnTwoThreadsIsGreedyExactMatch()
{
    const Dataset data = Dataset::build(tinyDataset());
    Seq2SeqModel model(tinyModelConfig(), Vocabulary::build(data.train), 1);
    TrainingConfig t = tinyTraining();
    t.epochs = 4;
    t.threads = 2;
    std::vector<double> validated, evaluated;
    Trainer::Callbacks callbacks;
    callbacks.onEpoch = [&](const EpochStats &e, bool) {
        validated.push_back(e.valExactMatch);
        evaluated.push_back(evaluate(model, data.val, DecodeMode::Batched).exactMatch);
    };
    Trainer(model, data, t).run(callbacks);
    QCOMPARE(validated, evaluated);
    QVERIFY(validated.front() < validated.back());  // it learnt, so the comparison saw varied scores
}

ATTNSCOPE_TEST(trainer, TestTrainer)
#include "tst_trainer.moc"
