#include "tests/common/testregistry.h"
#include "engine/fast/recurrentprojection.h"

#include <QtTest>

namespace {

// A parameter stored (out, in), as torch::nn keeps them, used through its (in, out) transpose,
// as the decoder does.
struct Weights {
    torch::Tensor weight = torch::randn({5, 5}).requires_grad_(true);
    torch::Tensor bias = torch::randn({5}).requires_grad_(true);
    torch::Tensor other = torch::randn({5, 3}).requires_grad_(true);  // a second projection, no bias

    std::vector<torch::Tensor> gradients() const { return {weight.grad(), bias.grad(), other.grad()}; }
    void zeroGrad()
    {
        for (torch::Tensor *t : {&weight, &bias, &other})
            t->mutable_grad() = torch::Tensor();
    }
};

// h_t = tanh(b + W h_{t-1} + U x_t) over `steps`, through RecurrentProjection or plain addmm;
// the loss leaves out the state after `unusedFrom` (a step whose output the loss never reaches).
torch::Tensor recurrence(const Weights &w, const torch::Tensor &h0, const torch::Tensor &inputs, bool projected,
                         int64_t unusedFrom)
{
    const RecurrentProjection hidden(w.weight.t(), w.bias);
    const RecurrentProjection input(w.other.t(), {});
    torch::Tensor h = h0;
    torch::Tensor loss = torch::zeros({});
    for (int64_t t = 0; t < inputs.size(0); ++t) {
        const auto x = inputs[t];
        const auto pre = projected ? input(x, hidden(h)) : torch::addmm(torch::addmm(w.bias, h, w.weight.t()), x, w.other.t());
        h = torch::tanh(pre);
        if (t < unusedFrom)
            loss = loss + (h * float(t + 1)).sum();
    }
    return loss;
}

}

// A weight used at every step of a recurrence gets the gradient plain autograd would give it,
// computed once from all steps.
class TestRecurrentProjection : public QObject
{
    Q_OBJECT
private slots:
    void gradientsMatchAutograd_data();
    void gradientsMatchAutograd();
    void withoutGradientsIsAddmm_data();
    void withoutGradientsIsAddmm();
    void addendReplacesOnlyAMissingBias();
};

void TestRecurrentProjection::gradientsMatchAutograd_data()
{
    QTest::addColumn<int>("steps");
    QTest::addColumn<int>("unusedFrom");
    QTest::newRow("one step") << 1 << 1;
    QTest::newRow("six steps") << 6 << 6;
    QTest::newRow("last two steps unused") << 6 << 4;
}

void TestRecurrentProjection::gradientsMatchAutograd()
{
    QFETCH(int, steps);
    QFETCH(int, unusedFrom);
    torch::manual_seed(31);
    Weights w;
    const auto h0 = torch::randn({2, 5}).requires_grad_(true);
    const auto inputs = torch::randn({steps, 2, 3}).requires_grad_(true);

    const auto expected = recurrence(w, h0, inputs, /*projected=*/false, unusedFrom);
    expected.backward();
    const auto expectedGradients = w.gradients();
    const auto expectedH0 = h0.grad().clone(), expectedInputs = inputs.grad().clone();
    w.zeroGrad();
    h0.mutable_grad() = torch::Tensor();
    inputs.mutable_grad() = torch::Tensor();

    const auto mine = recurrence(w, h0, inputs, /*projected=*/true, unusedFrom);
    QVERIFY(torch::allclose(mine, expected, 1e-5, 1e-5));
    mine.backward();
    const auto gradients = w.gradients();
    for (std::size_t i = 0; i < gradients.size(); ++i) {
        QVERIFY(gradients[i].defined());
        QCOMPARE(gradients[i].sizes(), expectedGradients[i].sizes());
        QVERIFY2(torch::allclose(gradients[i], expectedGradients[i], 1e-5, 1e-5), std::to_string(i).c_str());
    }
    QVERIFY(torch::allclose(h0.grad(), expectedH0, 1e-5, 1e-5));
    QVERIFY(torch::allclose(inputs.grad(), expectedInputs, 1e-5, 1e-5));
    QVERIFY(w.weight.grad().abs().sum().item<float>() > 0);
}

// Without gradients a weight stored as it is multiplied takes the oneDNN product, any other the
// addmm fallback: both give addmm's result, for a bias, an addend or neither.
void TestRecurrentProjection::withoutGradientsIsAddmm_data()
{
    QTest::addColumn<bool>("storedAsMultiplied");
    QTest::addColumn<QString>("offset");
    QTest::addColumn<int>("rows");
    QTest::addColumn<bool>("stridedInput");
    QTest::addColumn<bool>("doubles");
    QTest::newRow("transposed view, bias") << false << "bias" << 3 << false << false;
    QTest::newRow("stored (in, out), bias") << true << "bias" << 3 << false << false;
    QTest::newRow("stored, addend") << true << "addend" << 3 << false << false;
    QTest::newRow("stored, neither") << true << "none" << 3 << false << false;
    QTest::newRow("stored, one row, bias") << true << "bias" << 1 << false << false;
    QTest::newRow("stored, strided input, addend") << true << "addend" << 3 << true << false;
    QTest::newRow("stored, doubles") << true << "bias" << 3 << false << true;
}

void TestRecurrentProjection::withoutGradientsIsAddmm()
{
    QFETCH(bool, storedAsMultiplied);
    QFETCH(QString, offset);
    QFETCH(int, rows);
    QFETCH(bool, stridedInput);
    QFETCH(bool, doubles);
    torch::manual_seed(32);
    const auto type = doubles ? torch::kDouble : torch::kFloat;
    const auto parameter = torch::randn({7, 5}, type);  // (out, in)
    const auto weight = storedAsMultiplied ? parameter.t().contiguous() : parameter.t();
    const auto bias = offset == "bias" ? torch::randn({7}, type) : torch::Tensor();
    const auto addend = offset == "addend" ? torch::randn({rows, 7}, type) : torch::Tensor();
    const auto x = stridedInput ? torch::randn({rows, 10}, type).narrow(1, 2, 5) : torch::randn({rows, 5}, type);
    const auto addendBefore = addend.defined() ? addend.clone() : torch::Tensor();
    torch::NoGradGuard noGrad;
    const auto y = RecurrentProjection(weight, bias)(x, addend);
    const torch::Tensor &expectedOffset = bias.defined() ? bias : addend;
    const auto expected = expectedOffset.defined() ? torch::addmm(expectedOffset, x, parameter.t()) : torch::mm(x, parameter.t());
    QCOMPARE(y.scalar_type(), type);
    QCOMPARE(y.sizes(), expected.sizes());
    QVERIFY(torch::allclose(y, expected, 1e-5, 1e-5));
    if (addend.defined())
        QVERIFY(torch::equal(addend, addendBefore));  // read, not written
}

void TestRecurrentProjection::addendReplacesOnlyAMissingBias()
{
    torch::manual_seed(33);
    const Weights w;
    const auto x = torch::randn({3, 5});
    const auto addend = torch::randn({3, 5});
    QVERIFY(torch::allclose(RecurrentProjection(w.weight.t(), {})(x, addend), torch::addmm(addend, x, w.weight.t()),
                            1e-6, 1e-6));
    QVERIFY_EXCEPTION_THROWN(RecurrentProjection(w.weight.t(), w.bias)(x, addend), std::logic_error);
}

ATTNSCOPE_TEST(recurrentprojection, TestRecurrentProjection)
#include "tst_recurrentprojection.moc"
