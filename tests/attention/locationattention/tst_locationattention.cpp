#include "tests/common/testregistry.h"
#include "engine/attention/locationattention.h"

#include <QtTest>

#include <cmath>
#include <limits>
#include <vector>

namespace {

// Location-aware attention op by op, as LibTorch's modules compute it: the oracle the fused step
// is held to. f = F * a_{t-1}, e_i = v . tanh(W_s s + keys_i + U f_i + b), masked softmax.
std::pair<torch::Tensor, torch::Tensor> referenceAttention(LocationAttention &attention, const torch::Tensor &state,
                                                           const torch::Tensor &keys, const torch::Tensor &previous,
                                                           const torch::Tensor &values, const torch::Tensor &mask)
{
    const auto location = attention->U(attention->F(previous.unsqueeze(1)).transpose(1, 2));
    const auto energy = torch::tanh(keys + location + attention->W_s(state).unsqueeze(1));
    const auto scores = attention->v(energy).squeeze(2).masked_fill(mask.logical_not(),
                                                                    -std::numeric_limits<float>::infinity());
    const auto weights = torch::softmax(scores, 1);
    return {torch::bmm(weights.unsqueeze(1), values).squeeze(1), weights};
}

torch::Tensor biasOf(const torch::Tensor &mask)
{
    return torch::zeros(mask.sizes()).masked_fill(mask.logical_not(), -std::numeric_limits<float>::infinity());
}

}

// The location term and the score it enters, number by number on a small case; and the fused step
// chained over steps, each reading the last one's weights, against the op-by-op oracle, forwards
// and backwards, so the gradient through a_{t-1} into the step before is checked too.
class TestLocationAttention : public QObject
{
    Q_OBJECT
private slots:
    void scoresMatchAHandComputedReference();
    void chainedStepsMatchTheReferenceAndItsGradients();
};

// Every sum written out in doubles: f_ik = Σ_r F_k,r a_{i+r-2} (zero outside the sentence),
// e_i = Σ_a v_a tanh((W_s s)_a + (W_h h_i)_a + Σ_k U_a,k f_ik + b_a), then the masked softmax.
void TestLocationAttention::scoresMatchAHandComputedReference()
{
    torch::manual_seed(11);
    const int H = 3, D = 2, A = 4, S = 5, width = LocationAttentionImpl::kFilterWidth;
    LocationAttention attention(H, D, A);
    torch::NoGradGuard noGrad;
    const auto values = torch::randn({1, S, H});
    const auto state = torch::randn({1, D});
    const auto previous = torch::tensor({{0.1f, 0.6f, 0.3f, 0.0f, 0.0f}});  // a_{t-1}; the last two padding
    const auto mask = torch::tensor({{1, 1, 1, 0, 0}}).to(torch::kBool);
    const auto [context, weights] =
        attention->attend(attention->W_s(state), attention->keys(values), previous, values, biasOf(mask));

    const auto h = values.accessor<float, 3>();
    const auto s = state.accessor<float, 2>();
    const auto a = previous.accessor<float, 2>();
    const auto Wh = attention->W_h->weight.accessor<float, 2>(), Ws = attention->W_s->weight.accessor<float, 2>();
    const auto v = attention->v->weight.accessor<float, 2>();
    const auto F = attention->F->weight.accessor<float, 3>();
    const auto U = attention->U->weight.accessor<float, 2>();
    const auto b = attention->U->bias.accessor<float, 1>();
    std::vector<double> e(S, -std::numeric_limits<double>::infinity());
    double highest = -std::numeric_limits<double>::infinity();
    for (int i = 0; i < 3; ++i) {
        e[std::size_t(i)] = 0;
        for (int j = 0; j < A; ++j) {
            double pre = b[j];
            for (int k = 0; k < D; ++k)
                pre += double(Ws[j][k]) * s[0][k];
            for (int k = 0; k < H; ++k)
                pre += double(Wh[j][k]) * h[0][i][k];
            for (int k = 0; k < LocationAttentionImpl::kFilters; ++k) {
                double f = 0;
                for (int r = 0; r < width; ++r) {
                    const int at = i + r - width / 2;
                    if (at >= 0 && at < S)
                        f += double(F[k][0][r]) * a[0][at];
                }
                pre += double(U[j][k]) * f;
            }
            e[std::size_t(i)] += double(v[0][j]) * std::tanh(pre);
        }
        highest = std::max(highest, e[std::size_t(i)]);
    }
    double sum = 0;
    for (double &x : e)
        sum += x = std::exp(x - highest);
    for (int i = 0; i < S; ++i) {
        QVERIFY2(std::abs(weights[0][i].item<double>() - e[std::size_t(i)] / sum) < 1e-6,
                 qPrintable(QString::number(i)));
        if (i >= 3)
            QCOMPARE(weights[0][i].item<float>(), 0.0f);
    }
    for (int k = 0; k < H; ++k) {
        double c = 0;
        for (int i = 0; i < S; ++i)
            c += e[std::size_t(i)] / sum * h[0][i][k];
        QVERIFY(std::abs(context[0][k].item<double>() - c) < 1e-6);
    }
}

void TestLocationAttention::chainedStepsMatchTheReferenceAndItsGradients()
{
    torch::manual_seed(12);
    LocationAttention attention(8, 6, 7);
    const auto values = torch::randn({3, 5, 8}).requires_grad_(true);
    const auto states = torch::randn({3, 3, 6}).requires_grad_(true);  // (step, B, D)
    const auto mask = torch::tensor({{1, 1, 1, 1, 1}, {1, 1, 1, 0, 0}, {1, 0, 0, 0, 0}}).to(torch::kBool);
    const auto contextWeight = torch::randn({3, 3, 8}), weightsWeight = torch::randn({3, 3, 5});
    const auto run = [&](bool fused) {
        const auto keys = attention->keys(values);
        torch::Tensor previous = torch::zeros({3, 5}), loss = torch::zeros({});
        std::vector<torch::Tensor> out;
        for (int t = 0; t < 3; ++t) {
            auto [context, weights] =
                fused ? attention->attend(attention->W_s(states[t]), keys, previous, values, biasOf(mask))
                      : referenceAttention(attention, states[t], keys, previous, values, mask);
            loss = loss + (context * contextWeight[t]).sum() + (weights * weightsWeight[t]).sum();
            out.push_back(context.detach());
            out.push_back(weights.detach());
            previous = weights;
        }
        loss.backward();
        for (torch::Tensor p : {states, values, attention->v->weight, attention->W_s->weight, attention->W_h->weight,
                                attention->F->weight, attention->U->weight, attention->U->bias}) {
            out.push_back(p.grad().clone());
            p.mutable_grad() = torch::Tensor();
        }
        return out;
    };
    const auto expected = run(false);
    const auto mine = run(true);
    const char *names[] = {"context 1", "weights 1", "context 2", "weights 2", "context 3", "weights 3", "d states",
                           "d values",  "d v",       "d W_s",     "d W_h",     "d F",       "d U",       "d b"};
    QCOMPARE(mine.size(), std::size(names));
    for (std::size_t i = 0; i < expected.size(); ++i)
        QVERIFY2(torch::allclose(mine[i], expected[i], 1e-5, 1e-5), names[i]);
    // The filters and U learn from the steps after the first: a_0 = 0 gives them nothing.
    QVERIFY(mine[11].abs().sum().item<float>() > 0);
}

ATTNSCOPE_TEST(locationattention, TestLocationAttention)
#include "tst_locationattention.moc"
