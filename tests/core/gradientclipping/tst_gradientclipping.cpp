#include "tests/common/testregistry.h"
#include "engine/core/gradientclipping.h"

#include <QtTest>

// Global-norm clipping must agree with torch::nn::utils::clip_grad_norm_.
class TestGradientClipping : public QObject
{
    Q_OBJECT
private slots:
    void matchesTorch_data();
    void matchesTorch();
    void nonFiniteNormLeavesGradients();
    void clipFactorIsTheScaleClippingApplies();
};

void TestGradientClipping::matchesTorch_data()
{
    QTest::addColumn<double>("maxNorm");
    QTest::addColumn<double>("scale");
    QTest::newRow("clips") << 1.0 << 10.0;
    QTest::newRow("below the limit") << 100.0 << 0.1;
}

void TestGradientClipping::matchesTorch()
{
    QFETCH(double, maxNorm);
    QFETCH(double, scale);
    torch::manual_seed(3);
    std::vector<torch::Tensor> mine, theirs;
    for (auto shape : {std::vector<int64_t>{3, 4}, {7}, {2, 2, 2}}) {
        auto a = torch::zeros(shape, torch::requires_grad());
        auto b = torch::zeros(shape, torch::requires_grad());
        const auto grad = torch::randn(shape) * scale;
        a.mutable_grad() = grad.clone();
        b.mutable_grad() = grad.clone();
        mine.push_back(a);
        theirs.push_back(b);
    }
    const double norm = clipGradientNorm(mine, maxNorm);
    const double reference = torch::nn::utils::clip_grad_norm_(theirs, maxNorm);
    QCOMPARE_LE(std::abs(norm - reference), 1e-4 * reference);
    double after = 0;
    for (std::size_t i = 0; i < mine.size(); ++i) {
        QVERIFY(torch::allclose(mine[i].grad(), theirs[i].grad(), 1e-6, 1e-7));
        after += mine[i].grad().pow(2).sum().item<double>();
    }
    QCOMPARE_LE(std::sqrt(after), std::max(maxNorm, 0.0) * 1.0001 + (norm < maxNorm ? norm : 0));
}

void TestGradientClipping::nonFiniteNormLeavesGradients()
{
    auto p = torch::zeros({2}, torch::requires_grad());
    p.mutable_grad() = torch::tensor({std::numeric_limits<float>::infinity(), 1.0f});
    QVERIFY(!std::isfinite(clipGradientNorm({p}, 1.0)));
    QCOMPARE(p.grad()[1].item<float>(), 1.0f);
}

// The factor the optimisers take in place of clipping: what clipGradientNorm scales by, and 1 for
// a norm within the bound or no bound at all.
void TestGradientClipping::clipFactorIsTheScaleClippingApplies()
{
    auto p = torch::zeros({2}, torch::requires_grad());
    p.mutable_grad() = torch::tensor({3.0f, 4.0f});
    const double norm = clipGradientNorm({p}, 1.0);
    QCOMPARE(p.grad()[1].item<float>(), float(4.0 * clipFactor(norm, 1.0)));
    QCOMPARE(clipFactor(0.5, 1.0), 1.0);
    QCOMPARE(clipFactor(5.0, std::numeric_limits<double>::infinity()), 1.0);
}

ATTNSCOPE_TEST(gradientclipping, TestGradientClipping)
#include "tst_gradientclipping.moc"
