#include "tests/common/testregistry.h"
#include "engine/core/maskedloss.h"
#include "engine/core/vocabulary.h"

#include <QtTest>

// Padded target positions must contribute exactly nothing to the loss or its gradient.
class TestMaskedLoss : public QObject
{
    Q_OBJECT
private slots:
    void paddingChangesNothing();
    void equalsMeanOverRealTokens();
};

void TestMaskedLoss::paddingChangesNothing()
{
    torch::manual_seed(1);
    auto logits = torch::randn({2, 4, 6}, torch::requires_grad());
    const auto targets = torch::tensor({{4, 5, Vocabulary::kEos, Vocabulary::kPad}, {4, 4, 5, Vocabulary::kEos}});
    const auto loss = maskedCrossEntropy(logits, targets);
    loss.backward();
    // The gradient at the padded position is exactly zero ...
    QCOMPARE(logits.grad()[0][3].abs().sum().item<float>(), 0.0f);
    // ... and garbage logits there do not change the loss.
    auto changed = logits.detach().clone();
    changed[0][3] = torch::full({6}, 1000.0f);
    QCOMPARE(maskedCrossEntropy(changed, targets).item<float>(), loss.item<float>());
}

void TestMaskedLoss::equalsMeanOverRealTokens()
{
    torch::manual_seed(2);
    const auto logits = torch::randn({1, 3, 5});
    const auto targets = torch::tensor({{4, Vocabulary::kEos, Vocabulary::kPad}});
    const auto logp = torch::log_softmax(logits[0], 1);
    const double expected = -(logp[0][4].item<double>() + logp[1][Vocabulary::kEos].item<double>()) / 2.0;
    QVERIFY(std::abs(maskedCrossEntropy(logits, targets).item<double>() - expected) < 1e-6);
}

ATTNSCOPE_TEST(maskedloss, TestMaskedLoss)
#include "tst_maskedloss.moc"
