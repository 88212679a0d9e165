#include "tests/common/testregistry.h"
#include "engine/core/torchapi.h"
#include "engine/word2vec/sgnsupdate.h"

#include <QtTest>

#include <vector>

// The hand-written negative-sampling step against LibTorch's autograd of the same loss, and the
// two row helpers the trainer applies it with.
class TestSgnsUpdate : public QObject
{
    Q_OBJECT
private slots:
    void matchesAutograd_data();
    void matchesAutograd();
    void contextsInTurnAreSuccessiveSgdSteps();
    void repeatedTargetMovesTwice();
    void addRowsAndMean();
};

namespace {

std::vector<float *> rowPointers(const torch::Tensor &matrix)
{
    std::vector<float *> rows;
    for (int64_t r = 0; r < matrix.size(0); ++r)
        rows.push_back(matrix.data_ptr<float>() + r * matrix.size(1));
    return rows;
}

// L = -log s(u_0 . h) - sum_{j>0} log s(-u_j . h)
torch::Tensor negativeSamplingLoss(const torch::Tensor &input, const torch::Tensor &outputs)
{
    const auto logits = torch::matmul(outputs, input);
    return -torch::log_sigmoid(logits[0]) - torch::log_sigmoid(-logits.slice(0, 1)).sum();
}

// One SGD step of the loss by autograd: the step for h, and u moved in place.
torch::Tensor autogradStep(const torch::Tensor &input, torch::Tensor &outputs, float alpha)
{
    const auto h = input.clone().requires_grad_(true);
    const auto u = outputs.clone().requires_grad_(true);
    negativeSamplingLoss(h, u).backward();
    outputs = (u - alpha * u.grad()).detach();
    return -alpha * h.grad();
}

}

void TestSgnsUpdate::matchesAutograd_data()
{
    QTest::addColumn<int>("targetCount");
    QTest::addColumn<int>("dimensions");
    QTest::addColumn<double>("scale");  // of the vectors: large scales reach saturated logits
    QTest::newRow("five noise words") << 6 << 5 << 0.5;
    QTest::newRow("two noise words") << 3 << 7 << 1.0;
    QTest::newRow("dimension 100") << 6 << 100 << 0.3;
    QTest::newRow("saturated logits") << 4 << 16 << 4.0;
    QTest::newRow("no noise word") << 1 << 9 << 1.0;
}

void TestSgnsUpdate::matchesAutograd()
{
    QFETCH(int, targetCount);
    QFETCH(int, dimensions);
    QFETCH(double, scale);
    torch::manual_seed(targetCount * 100 + dimensions);
    const auto input = torch::randn({dimensions}) * scale;
    const auto outputs = torch::randn({targetCount, dimensions}) * scale;
    const auto h = input.clone().requires_grad_(true);
    const auto u = outputs.clone().requires_grad_(true);
    const auto loss = negativeSamplingLoss(h, u);
    loss.backward();

    const float alpha = 0.05f;
    auto moved = outputs.clone();
    auto rows = rowPointers(moved);
    auto inputStep = torch::full({dimensions}, 99.0f);  // overwritten, not added to
    const double computed =
        sgnsStep(input.data_ptr<float>(), rows.data(), targetCount, dimensions, alpha, inputStep.data_ptr<float>(), true);
    QVERIFY(std::abs(computed - loss.item<double>()) <= 1e-4 * std::max(1.0, loss.item<double>()));
    QVERIFY(torch::allclose(inputStep, -alpha * h.grad(), 1e-4, 1e-6));
    QVERIFY(torch::allclose(moved, outputs - alpha * u.grad(), 1e-4, 1e-6));

    // Without the loss the step is the same and the returned loss is 0.
    auto again = outputs.clone();
    auto againRows = rowPointers(again);
    auto againStep = torch::zeros_like(inputStep);
    QCOMPARE(sgnsStep(input.data_ptr<float>(), againRows.data(), targetCount, dimensions, alpha,
                      againStep.data_ptr<float>(), false),
             0.0);
    QVERIFY(torch::equal(againStep, inputStep));
    QVERIFY(torch::equal(again, moved));
}

// A skip-gram window: its context words take their steps in turn against the same targets, each
// seeing the output vectors as the ones before it left them, as word2vec.c and gensim do.
void TestSgnsUpdate::contextsInTurnAreSuccessiveSgdSteps()
{
    torch::manual_seed(5);
    const int dimensions = 12, contexts = 4, targets = 3;
    const float alpha = 0.2f;
    const auto inputs = torch::randn({contexts, dimensions});
    const auto outputs = torch::randn({targets, dimensions});

    auto expectedOutputs = outputs.clone();
    std::vector<torch::Tensor> expectedSteps;
    for (int c = 0; c < contexts; ++c)
        expectedSteps.push_back(autogradStep(inputs[c], expectedOutputs, alpha));

    auto moved = outputs.clone();
    auto rows = rowPointers(moved);
    auto step = torch::zeros({dimensions});
    for (int c = 0; c < contexts; ++c) {
        const auto input = inputs[c].contiguous();
        sgnsStep(input.data_ptr<float>(), rows.data(), targets, dimensions, alpha, step.data_ptr<float>(), false);
        QVERIFY(torch::allclose(step, expectedSteps[size_t(c)], 1e-4, 1e-6));
    }
    QVERIFY(torch::allclose(moved, expectedOutputs, 1e-4, 1e-6));
    // In turn is not at once: the last context's step differs from one taken from the start.
    auto fromStart = outputs.clone();
    QVERIFY(!torch::allclose(autogradStep(inputs[contexts - 1], fromStart, alpha), expectedSteps.back(), 1e-4, 1e-6));
}

// A noise word drawn twice is two targets pointing at one vector: it moves twice, the second time
// from where the first left it, and the input's step takes it as it was at each turn.
void TestSgnsUpdate::repeatedTargetMovesTwice()
{
    torch::manual_seed(3);
    const int dimensions = 6;
    const float alpha = 0.5f;
    const auto input = torch::randn({dimensions});
    auto vocabulary = torch::randn({2, dimensions});  // the true word 0, the noise word 1
    const auto before = vocabulary.clone();
    std::vector<float *> rows = {vocabulary.data_ptr<float>(), vocabulary.data_ptr<float>() + dimensions,
                                 vocabulary.data_ptr<float>() + dimensions};
    auto step = torch::zeros({dimensions});
    sgnsStep(input.data_ptr<float>(), rows.data(), 3, dimensions, alpha, step.data_ptr<float>(), false);

    // By hand: g = alpha (label - s(u . h)) for each turn.
    auto u0 = before[0].clone(), u1 = before[1].clone();
    auto expectedStep = torch::zeros({dimensions});
    const auto g0 = alpha * (1 - torch::sigmoid(u0.dot(input)));
    expectedStep += g0 * u0;
    u0 += g0 * input;
    for (int turn = 0; turn < 2; ++turn) {
        const auto g = -alpha * torch::sigmoid(u1.dot(input));
        expectedStep += g * u1;
        u1 += g * input;
    }
    QVERIFY(torch::allclose(step, expectedStep, 1e-5, 1e-6));
    QVERIFY(torch::allclose(vocabulary[0], u0, 1e-5, 1e-6));
    QVERIFY(torch::allclose(vocabulary[1], u1, 1e-5, 1e-6));
}
void TestSgnsUpdate::addRowsAndMean()
{
    torch::manual_seed(4);
    const int dimensions = 37;
    auto matrix = torch::randn({3, dimensions});
    const auto before = matrix.clone();
    const auto steps = torch::randn({3, dimensions});
    std::vector<float *> rows = {matrix.data_ptr<float>() + 2 * dimensions, matrix.data_ptr<float>()};
    addRows(rows.data(), 2, steps.data_ptr<float>(), dimensions, dimensions);
    QVERIFY(torch::allclose(matrix[2], before[2] + steps[0]));
    QVERIFY(torch::allclose(matrix[0], before[0] + steps[1]));
    QVERIFY(torch::equal(matrix[1], before[1]));

    // A stride of 0 adds the first step to every row, as CBOW does to its context words.
    const auto middle = matrix.clone();
    addRows(rows.data(), 2, steps.data_ptr<float>() + dimensions, 0, dimensions);
    QVERIFY(torch::allclose(matrix[2], middle[2] + steps[1]));
    QVERIFY(torch::allclose(matrix[0], middle[0] + steps[1]));

    auto mean = torch::zeros({dimensions});
    const auto all = rowPointers(matrix);
    meanOfRows(all.data(), 3, dimensions, mean.data_ptr<float>());
    QVERIFY(torch::allclose(mean, matrix.mean(0), 1e-5, 1e-6));
}

ATTNSCOPE_TEST(sgnsupdate, TestSgnsUpdate)
#include "tst_sgnsupdate.moc"
