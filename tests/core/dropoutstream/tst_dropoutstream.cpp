#include "tests/common/testregistry.h"
#include "engine/core/dropoutstream.h"

#include <QtTest>

#include <cmath>
#include <thread>

// Dropout masks drawn from a thread's own stream: torch::dropout's arithmetic and gradient, the
// same masks for the same keys whatever thread draws them, and LibTorch's dropout outside a stream.
class TestDropoutStream : public QObject
{
    Q_OBJECT
private slots:
    void keepsOrZeroesAndScales();
    void gradientIsTheMask();
    void sameKeysSameMasks();
    void otherKeysOtherMasks();
    void concurrentThreadsDrawTheirOwn();
    void withoutStreamIsTorchDropout();
    void evalAndZeroRateLeaveTheInput();
};

namespace {

constexpr double kRate = 0.25;

torch::Tensor masksOf(std::uint64_t seed, std::uint64_t step, std::uint64_t shard, int draws = 3)
{
    const DropoutStream stream(seed, step, shard);
    std::vector<torch::Tensor> masks;
    for (int i = 0; i < draws; ++i)
        masks.push_back(dropoutFromStream(torch::ones({64, 32}), kRate, true));
    return torch::stack(masks);
}

}

void TestDropoutStream::keepsOrZeroesAndScales()
{
    const DropoutStream stream(1, 2, 3);
    const auto input = torch::rand({200, 500}) + 0.5;
    const auto out = dropoutFromStream(input, kRate, true);
    const auto kept = out != 0;
    QVERIFY(torch::allclose(out.masked_select(kept), input.masked_select(kept) / (1 - kRate)));
    // Kept with probability 0.75: over 100,000 values the share lies within 0.75 +- 5 sd (0.0069).
    const double share = kept.to(torch::kDouble).mean().item<double>();
    QVERIFY2(std::abs(share - (1 - kRate)) < 5 * std::sqrt(kRate * (1 - kRate) / 100000.0),
             qPrintable(QString::number(share)));
}

void TestDropoutStream::gradientIsTheMask()
{
    const DropoutStream stream(4, 5, 6);
    const auto input = torch::rand({30, 40}).requires_grad_(true);
    const auto out = dropoutFromStream(input, kRate, true);
    out.sum().backward();
    QVERIFY(torch::allclose(input.grad(), out.detach() / input.detach()));
}

void TestDropoutStream::sameKeysSameMasks()
{
    QVERIFY(torch::equal(masksOf(42, 7, 16), masksOf(42, 7, 16)));
}

void TestDropoutStream::otherKeysOtherMasks()
{
    const auto base = masksOf(42, 7, 16);
    QVERIFY(!torch::equal(base, masksOf(43, 7, 16)));
    QVERIFY(!torch::equal(base, masksOf(42, 8, 16)));
    QVERIFY(!torch::equal(base, masksOf(42, 7, 0)));
    // Within one stream each draw is new.
    QVERIFY(!torch::equal(base[0], base[1]));
}

// Two threads drawing at once, many times, each get the masks they get alone.
void TestDropoutStream::concurrentThreadsDrawTheirOwn()
{
    const auto alone0 = masksOf(9, 1, 0, 200), alone1 = masksOf(9, 1, 16, 200);
    torch::Tensor together0, together1;
    std::thread first([&] { together0 = masksOf(9, 1, 0, 200); });
    std::thread second([&] { together1 = masksOf(9, 1, 16, 200); });
    first.join();
    second.join();
    QVERIFY(torch::equal(alone0, together0));
    QVERIFY(torch::equal(alone1, together1));
}

void TestDropoutStream::withoutStreamIsTorchDropout()
{
    const auto input = torch::rand({50, 60}) + 0.5;
    torch::manual_seed(11);
    const auto expected = torch::dropout(input, kRate, true);
    torch::manual_seed(11);
    QVERIFY(torch::equal(dropoutFromStream(input, kRate, true), expected));
    {
        // A stream that ended no longer applies.
        const DropoutStream ended(1, 1, 1);
    }
    torch::manual_seed(11);
    QVERIFY(torch::equal(dropoutFromStream(input, kRate, true), expected));
}

void TestDropoutStream::evalAndZeroRateLeaveTheInput()
{
    const DropoutStream stream(1, 1, 1);
    const auto input = torch::rand({20, 20});
    QVERIFY(torch::equal(dropoutFromStream(input, kRate, false), input));
    QVERIFY(torch::equal(dropoutFromStream(input, 0.0, true), input));
    StreamDropout module(kRate);
    module->eval();
    QVERIFY(torch::equal(module(input), input));
    module->train();
    QVERIFY(!torch::equal(module(input), input));
}

ATTNSCOPE_TEST(dropoutstream, TestDropoutStream)
#include "tst_dropoutstream.moc"
