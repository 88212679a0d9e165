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

void TestRecurrentProjection::withoutGradientsIsAddmm()
{
    torch::manual_seed(32);
    const Weights w;
    const auto x = torch::randn({3, 5});
    torch::NoGradGuard noGrad;
    const auto y = RecurrentProjection(w.weight.t(), w.bias)(x);
    QVERIFY(!y.requires_grad());
    QVERIFY(torch::allclose(y, torch::addmm(w.bias, x, w.weight.t()), 1e-6, 1e-6));
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

QTEST_MAIN(TestRecurrentProjection)
#include "tst_recurrentprojection.moc"
