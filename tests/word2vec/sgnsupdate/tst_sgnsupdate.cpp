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
    void repeatedRowsGetTheirOwnSteps();
    void addRowsAndMean();
};

namespace {

std::vector<const float *> rowPointers(const torch::Tensor &matrix)
{
    std::vector<const float *> rows;
    for (int64_t r = 0; r < matrix.size(0); ++r)
        rows.push_back(matrix.data_ptr<float>() + r * matrix.size(1));
    return rows;
}

// L = sum_i [ -log s(u_0 . h_i) - sum_{j>0} log s(-u_j . h_i) ]
torch::Tensor negativeSamplingLoss(const torch::Tensor &inputs, const torch::Tensor &outputs)
{
    const auto logits = torch::matmul(inputs, outputs.t());
    return -torch::log_sigmoid(logits.select(1, 0)).sum() - torch::log_sigmoid(-logits.slice(1, 1)).sum();
}

}

void TestSgnsUpdate::matchesAutograd_data()
{
    QTest::addColumn<int>("inputCount");
    QTest::addColumn<int>("targetCount");
    QTest::addColumn<int>("dimensions");
    QTest::addColumn<double>("scale");  // of the vectors: large scales reach saturated logits
    QTest::newRow("one context, five noise words") << 1 << 6 << 5 << 0.5;
    QTest::newRow("a window of four, two noise words") << 4 << 3 << 7 << 1.0;
    QTest::newRow("a full window at dimension 100") << 10 << 6 << 100 << 0.3;
    QTest::newRow("saturated logits") << 3 << 4 << 16 << 4.0;
    QTest::newRow("no noise word") << 2 << 1 << 9 << 1.0;
}

void TestSgnsUpdate::matchesAutograd()
{
    QFETCH(int, inputCount);
    QFETCH(int, targetCount);
    QFETCH(int, dimensions);
    QFETCH(double, scale);
    torch::manual_seed(inputCount * 100 + targetCount);
    const auto inputs = (torch::randn({inputCount, dimensions}) * scale).requires_grad_(true);
    const auto outputs = (torch::randn({targetCount, dimensions}) * scale).requires_grad_(true);
    const auto loss = negativeSamplingLoss(inputs, outputs);
    loss.backward();

    const float alpha = 0.05f;
    const auto inputRows = rowPointers(inputs.detach());
    const auto outputRows = rowPointers(outputs.detach());
    auto inputSteps = torch::full({inputCount, dimensions}, 99.0f);  // overwritten, not added to
    auto outputSteps = torch::full({targetCount, dimensions}, 99.0f);
    const double computed = sgnsStep(inputRows.data(), inputCount, outputRows.data(), targetCount, dimensions, alpha,
                                     inputSteps.data_ptr<float>(), outputSteps.data_ptr<float>(), true);
    QVERIFY(std::abs(computed - loss.item<double>()) <= 1e-4 * std::max(1.0, loss.item<double>()));
    QVERIFY(torch::allclose(inputSteps, -alpha * inputs.grad(), 1e-4, 1e-6));
    QVERIFY(torch::allclose(outputSteps, -alpha * outputs.grad(), 1e-4, 1e-6));

    // Without the loss the steps are the same and the returned loss is 0.
    auto againInput = torch::zeros_like(inputSteps);
    auto againOutput = torch::zeros_like(outputSteps);
    QCOMPARE(sgnsStep(inputRows.data(), inputCount, outputRows.data(), targetCount, dimensions, alpha,
                      againInput.data_ptr<float>(), againOutput.data_ptr<float>(), false),
             0.0);
    QVERIFY(torch::equal(againInput, inputSteps));
    QVERIFY(torch::equal(againOutput, outputSteps));
}

// A word twice in one window (or drawn twice as noise) is two rows pointing at one vector: each
// gets the step of its own position, and the sum of the two is that vector's whole gradient.
void TestSgnsUpdate::repeatedRowsGetTheirOwnSteps()
{
    torch::manual_seed(3);
    const int dimensions = 6;
    const auto vocabularyInputs = torch::randn({2, dimensions});
    const auto vocabularyOutputs = torch::randn({3, dimensions});
    const std::vector<int64_t> contextWords = {0, 1, 0};
    const std::vector<int64_t> targetWords = {2, 1, 1};
    const auto inputLeaf = vocabularyInputs.clone().requires_grad_(true);
    const auto outputLeaf = vocabularyOutputs.clone().requires_grad_(true);
    negativeSamplingLoss(inputLeaf.index_select(0, torch::tensor(contextWords)),
                         outputLeaf.index_select(0, torch::tensor(targetWords)))
        .backward();

    std::vector<const float *> inputRows, outputRows;
    for (int64_t w : contextWords)
        inputRows.push_back(vocabularyInputs.data_ptr<float>() + w * dimensions);
    for (int64_t w : targetWords)
        outputRows.push_back(vocabularyOutputs.data_ptr<float>() + w * dimensions);
    auto inputSteps = torch::zeros({3, dimensions});
    auto outputSteps = torch::zeros({3, dimensions});
    sgnsStep(inputRows.data(), 3, outputRows.data(), 3, dimensions, 1.0f, inputSteps.data_ptr<float>(),
             outputSteps.data_ptr<float>(), false);
    QVERIFY(torch::allclose(inputSteps[0] + inputSteps[2], -inputLeaf.grad()[0], 1e-4, 1e-6));
    QVERIFY(torch::allclose(inputSteps[1], -inputLeaf.grad()[1], 1e-4, 1e-6));
    QVERIFY(torch::allclose(outputSteps[1] + outputSteps[2], -outputLeaf.grad()[1], 1e-4, 1e-6));
    QVERIFY(torch::allclose(outputSteps[0], -outputLeaf.grad()[2], 1e-4, 1e-6));
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

QTEST_MAIN(TestSgnsUpdate)
#include "tst_sgnsupdate.moc"
