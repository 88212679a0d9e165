#include "tests/common/testregistry.h"
#include "engine/charlm/recurrentstack.h"
#include "engine/core/torchapi.h"

#include <QtTest>

#include <limits>

// The hand-written network gives what LibTorch's modules give (Embedding or one-hot, RNN, GRU or
// LSTM, Linear, cross-entropy), forwards and backwards, over windows with the state carried.
class TestRecurrentStack : public QObject
{
    Q_OBJECT
private slots:
    void matchesTorchModules_data();
    void matchesTorchModules();
    void parameterShapesAreTorchs();
};

namespace {

constexpr int kAlphabetSize = 7;
constexpr int kHidden = 5;
constexpr int kSeqLen = 4;
// Four streams: the last one shorter, so that it ends in the first window and is absent from
// the second, which is short for every stream (3 of 4 steps).
const std::vector<int> kStreamTargets = {7, 7, 7, 3};

// The torch model the stack is held to, built in the order the reference script builds it.
struct TorchModel {
    torch::nn::Embedding embedding{nullptr};
    torch::nn::RNN rnn{nullptr};
    torch::nn::GRU gru{nullptr};
    torch::nn::LSTM lstm{nullptr};
    torch::nn::Linear output{nullptr};

    explicit TorchModel(const CharModelConfig &config)
    {
        if (config.embed > 0)
            embedding = torch::nn::Embedding(kAlphabetSize, config.embed);
        const int input = config.embed > 0 ? config.embed : kAlphabetSize;
        if (config.cell == RecurrentCell::Rnn)
            rnn = torch::nn::RNN(torch::nn::RNNOptions(input, config.hidden).num_layers(config.layers).batch_first(true));
        else if (config.cell == RecurrentCell::Gru)
            gru = torch::nn::GRU(torch::nn::GRUOptions(input, config.hidden).num_layers(config.layers).batch_first(true));
        else
            lstm = torch::nn::LSTM(torch::nn::LSTMOptions(input, config.hidden).num_layers(config.layers).batch_first(true));
        output = torch::nn::Linear(config.hidden, kAlphabetSize);
    }

    std::vector<torch::Tensor> parameters() const
    {
        std::vector<torch::Tensor> all;
        if (!embedding.is_empty())
            all.push_back(embedding->weight);
        const auto recurrent = !rnn.is_empty() ? rnn->parameters() : !gru.is_empty() ? gru->parameters() : lstm->parameters();
        all.insert(all.end(), recurrent.begin(), recurrent.end());
        all.push_back(output->weight);
        all.push_back(output->bias);
        return all;
    }

    // Logits (1, steps, alphabet) for one stream from `state`, which becomes the state after it.
    torch::Tensor forward(const torch::Tensor &ids, std::vector<torch::Tensor> &state)
    {
        const torch::Tensor x = embedding.is_empty() ? torch::one_hot(ids, kAlphabetSize).to(torch::kFloat) : embedding(ids);
        torch::Tensor y;
        if (!lstm.is_empty()) {
            auto [out, hc] = lstm(x, std::make_tuple(state[0], state[1]));
            y = out;
            state = {std::get<0>(hc).detach(), std::get<1>(hc).detach()};
        } else {
            auto [out, h] = !gru.is_empty() ? gru(x, state[0]) : rnn(x, state[0]);
            y = out;
            state = {h.detach()};
        }
        return output(y);
    }
};

}

void TestRecurrentStack::matchesTorchModules_data()
{
    QTest::addColumn<int>("cell");
    QTest::addColumn<int>("layers");
    QTest::addColumn<int>("embed");
    for (RecurrentCell cell : {RecurrentCell::Rnn, RecurrentCell::Gru, RecurrentCell::Lstm})
        for (int layers : {1, 2})
            for (int embed : {3, 0})
                QTest::addRow("%s, %d layer%s, %s", cellName(cell), layers, layers > 1 ? "s" : "",
                              embed > 0 ? "embedding" : "one-hot")
                    << int(cell) << layers << embed;
}

void TestRecurrentStack::matchesTorchModules()
{
    QFETCH(int, cell);
    QFETCH(int, layers);
    QFETCH(int, embed);
    const CharModelConfig config{RecurrentCell(cell), kHidden, layers, embed};
    torch::manual_seed(uint64_t(100 + 10 * cell + 2 * layers + (embed > 0)));
    TorchModel torchModel(config);
    // Larger weights than torch's initial ones, so that the gates are not all near their midpoints.
    std::vector<float> flat;
    {
        torch::NoGradGuard noGrad;
        for (auto &p : torchModel.parameters()) {
            p.mul_(2.5);
            const auto values = p.contiguous();
            flat.insert(flat.end(), values.data_ptr<float>(), values.data_ptr<float>() + values.numel());
        }
    }
    const CharParameterView<const float> parameters(flat.data(), config, kAlphabetSize);
    std::vector<float> gradients(flat.size());
    const CharParameterView<float> gradientView(gradients.data(), config, kAlphabetSize);

    const int rows = int(kStreamTargets.size());
    std::vector<torch::Tensor> streams;
    for (int targets : kStreamTargets)
        streams.push_back(torch::randint(kAlphabetSize, {targets + 1}, torch::kLong));
    std::vector<std::vector<torch::Tensor>> torchStates(static_cast<size_t>(rows));
    for (auto &state : torchStates)
        for (int k = 0; k < (config.cell == RecurrentCell::Lstm ? 2 : 1); ++k)
            state.push_back(torch::zeros({layers, 1, kHidden}));

    RecurrentStack stack(config, kAlphabetSize, rows, kSeqLen);
    RecurrentStack evaluation(config, kAlphabetSize, rows, kSeqLen);
    for (int w = 0; w < 2; ++w) {
        CharWindow window;
        window.rows = rows;
        window.inputs.assign(size_t(rows * kSeqLen), 0);
        window.targets.assign(size_t(rows * kSeqLen), 0);
        torch::Tensor torchLoss = torch::zeros({});
        int count = 0;
        for (int b = 0; b < rows; ++b) {
            const int steps = std::clamp(kStreamTargets[size_t(b)] - w * kSeqLen, 0, kSeqLen);
            window.rowSteps.push_back(steps);
            window.steps = std::max(window.steps, steps);
            count += steps;
            for (int t = 0; t < steps; ++t) {
                window.inputs[size_t(t * rows + b)] = int32_t(streams[size_t(b)][w * kSeqLen + t].item<int64_t>());
                window.targets[size_t(t * rows + b)] = int32_t(streams[size_t(b)][w * kSeqLen + t + 1].item<int64_t>());
            }
            if (steps == 0)
                continue;
            const auto ids = streams[size_t(b)].slice(0, w * kSeqLen, w * kSeqLen + steps).unsqueeze(0);
            const auto next = streams[size_t(b)].slice(0, w * kSeqLen + 1, w * kSeqLen + steps + 1);
            const auto logits = torchModel.forward(ids, torchStates[size_t(b)]);
            torchLoss = torchLoss + torch::nn::functional::cross_entropy(
                                        logits.squeeze(0), next,
                                        torch::nn::functional::CrossEntropyFuncOptions().reduction(torch::kSum));
        }
        QCOMPARE(window.steps, w == 0 ? kSeqLen : kSeqLen - 1);
        for (auto &p : torchModel.parameters())
            if (p.grad().defined())
                p.mutable_grad().zero_();
        (torchLoss / double(count)).backward();

        // Every gradient is written, none left over from before.
        std::fill(gradients.begin(), gradients.end(), std::numeric_limits<float>::quiet_NaN());
        const double evaluated = evaluation.forward(parameters, window, false);
        const double loss = stack.forward(parameters, window, true);
        stack.backward(parameters, window, 1.0f / float(count), gradientView);

        const double expected = torchLoss.item<double>();
        QVERIFY2(std::abs(loss - expected) < 1e-5 * std::abs(expected),
                 qPrintable(QStringLiteral("window %1: loss %2, torch %3").arg(w).arg(loss).arg(expected)));
        QCOMPARE(evaluated, loss);
        size_t offset = 0, index = 0;
        for (const auto &p : torchModel.parameters()) {
            const auto mine = torch::from_blob(gradients.data() + offset, p.sizes());
            offset += size_t(p.numel());
            QVERIFY2(torch::allclose(mine, p.grad(), 1e-4, 1e-6),
                     qPrintable(QStringLiteral("window %1, parameter %2: largest difference %3")
                                    .arg(w)
                                    .arg(index)
                                    .arg((mine - p.grad()).abs().max().item<double>())));
            ++index;
        }
    }
}

void TestRecurrentStack::parameterShapesAreTorchs()
{
    for (RecurrentCell cell : {RecurrentCell::Rnn, RecurrentCell::Gru, RecurrentCell::Lstm})
        for (int embed : {3, 0}) {
            const CharModelConfig config{cell, 6, 2, embed};
            TorchModel torchModel(config);
            const auto shapes = charParameterShapes(config, kAlphabetSize);
            const auto parameters = torchModel.parameters();
            QCOMPARE(shapes.size(), parameters.size());
            for (size_t i = 0; i < shapes.size(); ++i)
                QCOMPARE(parameters[i].sizes().vec(), shapes[i]);
        }
}

ATTNSCOPE_TEST(recurrentstack, TestRecurrentStack)
#include "tst_recurrentstack.moc"
