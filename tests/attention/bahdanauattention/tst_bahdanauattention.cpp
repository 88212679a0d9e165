#include "tests/common/testregistry.h"
#include "engine/attention/bahdanauattention.h"
#include "tests/common/referencenet.h"

#include <QtTest>

// Attention weights form a distribution over real tokens; padding gets exactly zero. The first two
// tests hold the op-by-op reference to the formula, the last holds the fused node to the reference.
class TestBahdanauAttention : public QObject
{
    Q_OBJECT
private slots:
    void rowsSumToOneAndPaddingIsZero();
    void matchesTheFormula();
    void attendMatchesReference();
};

void TestBahdanauAttention::rowsSumToOneAndPaddingIsZero()
{
    torch::manual_seed(5);
    BahdanauAttention attention(8, 6, 7);
    const auto values = torch::randn({3, 5, 8});
    const auto mask = torch::tensor({{1, 1, 1, 1, 1}, {1, 1, 0, 0, 0}, {1, 0, 0, 0, 0}}).to(torch::kBool);
    auto [context, weights] = referenceAttention(attention, torch::randn({3, 6}), attention->keys(values), values, mask);
    QCOMPARE(weights.sizes(), (torch::IntArrayRef{3, 5}));
    QVERIFY(torch::allclose(weights.sum(1), torch::ones({3}), 1e-6, 1e-6));
    QCOMPARE(weights.masked_select(mask.logical_not()).abs().sum().item<float>(), 0.0f);
    QCOMPARE(weights[2][0].item<float>(), 1.0f);
    QCOMPARE(context.sizes(), (torch::IntArrayRef{3, 8}));
}

void TestBahdanauAttention::matchesTheFormula()
{
    torch::manual_seed(6);
    BahdanauAttention attention(4, 3, 5);
    const auto values = torch::randn({1, 3, 4});
    const auto state = torch::randn({1, 3});
    const auto mask = torch::ones({1, 3}, torch::kBool);
    auto [context, weights] = referenceAttention(attention, state, attention->keys(values), values, mask);
    // e_i = v . tanh(W_s s + W_h h_i), alpha = softmax(e), context = sum alpha_i h_i
    std::vector<torch::Tensor> energies;
    for (int i = 0; i < 3; ++i)
        energies.push_back((attention->v->weight[0]
                            * torch::tanh(torch::mv(attention->W_s->weight, state[0])
                                          + torch::mv(attention->W_h->weight, values[0][i]))).sum());
    const auto expected = torch::softmax(torch::stack(energies), 0);
    QVERIFY(torch::allclose(weights[0], expected, 1e-5, 1e-6));
    QVERIFY(torch::allclose(context[0], torch::mv(values[0].t(), expected), 1e-5, 1e-6));
}

// The decoder's fused attend(), from W_s s and a mask bias, gives the reference's context and weights
// and the same gradients for the state, keys, values and v, whichever output the loss reads.
void TestBahdanauAttention::attendMatchesReference()
{
    torch::manual_seed(7);
    BahdanauAttention attention(8, 6, 7);
    const auto values = torch::randn({3, 5, 8}).requires_grad_(true);
    const auto keys = torch::randn({3, 5, 7}).requires_grad_(true);
    const auto state = torch::randn({3, 6}).requires_grad_(true);
    const auto mask = torch::tensor({{1, 1, 1, 1, 1}, {1, 1, 1, 0, 0}, {1, 0, 0, 0, 0}}).to(torch::kBool);
    const auto maskBias = torch::zeros({3, 5}).masked_fill(mask.logical_not(), -std::numeric_limits<float>::infinity());
    const auto contextWeight = torch::randn({3, 8}), weightsWeight = torch::randn({3, 5});
    const auto run = [&](bool fused) {
        auto [context, weights] = fused ? attention->attend(attention->W_s(state), keys, values, maskBias)
                                        : referenceAttention(attention, state, keys, values, mask);
        ((context * contextWeight).sum() + (weights * weightsWeight).sum()).backward();
        std::vector<torch::Tensor> out{context.detach(), weights.detach()};
        for (torch::Tensor t : {state, keys, values, attention->v->weight, attention->W_s->weight}) {
            out.push_back(t.grad().clone());
            t.mutable_grad() = torch::Tensor();
        }
        return out;
    };
    const auto expected = run(false);
    const auto mine = run(true);
    const char *names[] = {"context", "weights", "d state", "d keys", "d values", "d v", "d W_s"};
    for (std::size_t i = 0; i < expected.size(); ++i)
        QVERIFY2(torch::allclose(mine[i], expected[i], 1e-5, 1e-5), names[i]);
    QCOMPARE(mine[1].masked_select(mask.logical_not()).abs().sum().item<float>(), 0.0f);
}

ATTNSCOPE_TEST(bahdanauattention, TestBahdanauAttention)
#include "tst_bahdanauattention.moc"
