#include "tests/common/testregistry.h"
#include "engine/fast/recurrentsweep.h"
#include "engine/core/floatdata.h"

#include <QtTest>

namespace {

// One layer of `kind` as torch's module, input size `input`, hidden size `hidden`.
torch::nn::AnyModule moduleOf(RecurrentCell kind, int64_t input, int64_t hidden)
{
    switch (kind) {
    case RecurrentCell::Gru: return torch::nn::AnyModule(torch::nn::GRU(torch::nn::GRUOptions(input, hidden).batch_first(true)));
    case RecurrentCell::Rnn: return torch::nn::AnyModule(torch::nn::RNN(torch::nn::RNNOptions(input, hidden).batch_first(true)));
    case RecurrentCell::Lstm: break;
    }
    return torch::nn::AnyModule(torch::nn::LSTM(torch::nn::LSTMOptions(input, hidden).batch_first(true)));
}

}

// The sweep the character model and the seq2seq encoder run their layers through gives, for rows
// of different lengths from a given state, each step's state and, from a cotangent of those
// states, the gate gradients from which every parameter's gradient equals torch's module's.
class TestRecurrentSweep : public QObject
{
    Q_OBJECT
private slots:
    void matchesTheModuleRowByRow_data();
    void matchesTheModuleRowByRow();
};

void TestRecurrentSweep::matchesTheModuleRowByRow_data()
{
    QTest::addColumn<int>("cell");
    for (const RecurrentCell kind : {RecurrentCell::Gru, RecurrentCell::Rnn, RecurrentCell::Lstm})
        QTest::newRow(cellName(kind)) << int(kind);
}

void TestRecurrentSweep::matchesTheModuleRowByRow()
{
    QFETCH(int, cell);
    const RecurrentCell kind = RecurrentCell(cell);
    torch::manual_seed(31);
    const int64_t input = 5, hidden = 6, gates = gateCount(kind) * hidden, steps = 5;
    const std::vector<int> lengths{5, 3, 3, 1};
    const int64_t rows = int64_t(lengths.size());
    std::vector<int> active;
    for (int64_t t = 0; t < steps; ++t)
        active.push_back(int(std::count_if(lengths.begin(), lengths.end(), [t](int l) { return l > t; })));
    torch::nn::AnyModule module = moduleOf(kind, input, hidden);
    auto parameters = module.ptr()->named_parameters();
    const torch::Tensor inputWeight = parameters["weight_ih_l0"], hiddenWeight = parameters["weight_hh_l0"];
    const torch::Tensor inputBias = parameters["bias_ih_l0"], hiddenBias = parameters["bias_hh_l0"];
    const torch::Tensor x = torch::randn({steps, rows, input}), start = torch::randn({rows, hidden});
    const torch::Tensor startCell = torch::randn({rows, hidden}), cotangent = torch::randn({steps, rows, hidden});

    // The sweep, time-major.
    torch::NoGradGuard noGrad;
    torch::Tensor inputGates = torch::matmul(x, inputWeight.t()).contiguous();
    if (kind != RecurrentCell::Gru)
        inputGates.add_(inputBias + hiddenBias);
    RecurrentActivations a;
    a.allocate(kind, rows, steps, hidden);
    std::copy(floatData(start), floatData(start) + rows * hidden, a.hidden.begin());
    if (kind == RecurrentCell::Lstm)
        std::copy(floatData(startCell), floatData(startCell) + rows * hidden, a.cell.begin());
    RecurrentSweep sweep(kind, int(hidden), int(rows));
    const RecurrentSweep::Weights weights{floatData(hiddenWeight), floatData(inputBias), floatData(hiddenBias)};
    RecurrentSweep::Inputs in;
    in.gates = floatData(inputGates);
    sweep.forward(weights, in, active, int(steps), a);
    const torch::Tensor states = torch::from_blob(a.hidden.data(), {steps + 1, rows, hidden}).clone();
    torch::Tensor dHidden = cotangent.clone(), dInputGates = torch::empty({steps, rows, gates});
    torch::Tensor dHiddenGates = torch::empty({steps, rows, gates});
    torch::Tensor dInputBias = torch::empty({gates}), dHiddenBias = torch::empty({gates});
    RecurrentSweep::Gradients gradients;
    gradients.dInputGates = floatData(dInputGates);
    gradients.dHiddenGates = floatData(dHiddenGates);
    gradients.dInputBias = floatData(dInputBias);
    gradients.dHiddenBias = floatData(dHiddenBias);
    sweep.backward(weights, in, active, int(steps), a, floatData(dHidden), gradients);
    const torch::Tensor dRecurrent = kind == RecurrentCell::Gru ? dHiddenGates : dInputGates;
    const torch::Tensor dInputWeight = dInputGates.view({-1, gates}).t().mm(x.view({-1, input}));
    const torch::Tensor dHiddenWeight = dRecurrent.view({-1, gates}).t().mm(states.narrow(0, 0, steps).reshape({-1, hidden}));

    // The module, one row at a time over its own length.
    torch::Tensor loss = torch::zeros({});
    for (int64_t r = 0; r < rows; ++r) {
        const int64_t length = lengths[std::size_t(r)];
        const torch::Tensor sequence = x.narrow(0, 0, length).select(1, r).unsqueeze(0);
        const torch::Tensor h0 = start[r].view({1, 1, hidden});
        torch::Tensor outputs;
        {
            torch::AutoGradMode withGradients(true);
            if (kind == RecurrentCell::Lstm)
                outputs = std::get<0>(module.get<torch::nn::LSTM>()->forward(
                    sequence, std::make_tuple(h0, startCell[r].view({1, 1, hidden}))));
            else if (kind == RecurrentCell::Gru)
                outputs = std::get<0>(module.get<torch::nn::GRU>()->forward(sequence, h0));
            else
                outputs = std::get<0>(module.get<torch::nn::RNN>()->forward(sequence, h0));
            loss = loss + (outputs[0] * cotangent.narrow(0, 0, length).select(1, r)).sum();
        }
        const QString which = QString("row %1").arg(r);
        QVERIFY2(torch::allclose(states.narrow(0, 1, length).select(1, r), outputs[0], 1e-5, 1e-5), qPrintable(which));
        if (length < steps)  // a row that has ended holds a zero state
            QVERIFY2(states.narrow(0, length + 1, steps - length).select(1, r).abs().max().item<float>() == 0.0f,
                     qPrintable(which));
    }
    {
        torch::AutoGradMode withGradients(true);
        loss.backward();
    }
    QVERIFY(torch::allclose(dInputWeight, inputWeight.grad(), 1e-4, 1e-5));
    QVERIFY(torch::allclose(dHiddenWeight, hiddenWeight.grad(), 1e-4, 1e-5));
    QVERIFY(torch::allclose(dInputBias, inputBias.grad(), 1e-4, 1e-5));
    QVERIFY(torch::allclose(dHiddenBias, hiddenBias.grad(), 1e-4, 1e-5));
}

ATTNSCOPE_TEST(recurrentsweep, TestRecurrentSweep)
#include "tst_recurrentsweep.moc"
