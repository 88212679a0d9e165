#include "tests/common/testregistry.h"
#include "engine/attention/seq2seqnet.h"
#include "engine/attention/seq2seqweights.h"
#include "tests/common/attentionkindname.h"

#include <QtTest>

#include <string>
#include <vector>

namespace {

struct Field {
    std::string name;
    torch::Tensor tensor;
};

void add(std::vector<Field> &fields, const std::string &name, const torch::Tensor &t)
{
    if (t.defined())
        fields.push_back({name, t});
}

void addLayers(std::vector<Field> &fields, const std::string &prefix, const std::vector<RecurrentLayerWeights> &layers)
{
    for (std::size_t i = 0; i < layers.size(); ++i) {
        const std::string p = prefix + std::to_string(i) + ".";
        add(fields, p + "W_ih", layers[i].inputWeight);
        add(fields, p + "W_hh", layers[i].hiddenWeight);
        add(fields, p + "b_ih", layers[i].inputBias);
        add(fields, p + "b_hh", layers[i].hiddenBias);
    }
}

// Every field of the accessor that stands for a whole parameter (defined ones only).
std::vector<Field> parameterFields(const Seq2SeqWeights &w)
{
    std::vector<Field> f;
    add(f, "encoder.embedding", w.encoder.embedding);
    addLayers(f, "encoder.layer", w.encoder.layers);
    add(f, "encoder.bridgeWeight", w.encoder.bridgeWeight);
    add(f, "encoder.bridgeBias", w.encoder.bridgeBias);
    const DecoderWeights &d = w.decoder;
    add(f, "decoder.embedding", d.embedding);
    addLayers(f, "decoder.layer", d.layers);
    add(f, "decoder.keysWeight", d.keysWeight);
    add(f, "decoder.queryWeight", d.queryWeight);
    add(f, "decoder.scoreWeight", d.scoreWeight);
    add(f, "decoder.locationFilters", d.locationFilters);
    add(f, "decoder.locationWeight", d.locationWeight);
    add(f, "decoder.locationBias", d.locationBias);
    add(f, "decoder.luongKeysWeight", d.luongKeysWeight);
    add(f, "decoder.attentionalWeight", d.attentionalWeight);
    add(f, "decoder.outputWeight", d.outputWeight);
    add(f, "decoder.outputBias", d.outputBias);
    return f;
}

// The fields that are column blocks of a parameter.
std::vector<Field> viewFields(const Seq2SeqWeights &w)
{
    std::vector<Field> f;
    const DecoderWeights &d = w.decoder;
    add(f, "embeddingToGates", d.embeddingToGates);
    add(f, "contextToGates", d.contextToGates);
    add(f, "stateToLogits", d.stateToLogits);
    add(f, "contextToLogits", d.contextToLogits);
    add(f, "embeddingToLogits", d.embeddingToLogits);
    return f;
}

// The defined blocks side by side, in the order the parameter's columns read them.
torch::Tensor columns(const std::vector<torch::Tensor> &blocks)
{
    std::vector<torch::Tensor> defined;
    for (const torch::Tensor &b : blocks)
        if (b.defined())
            defined.push_back(b);
    return torch::cat(defined, 1);
}

Seq2SeqNet makeNet(const QString &variant, int layers, bool bidirectional, RecurrentCell cell)
{
    ModelConfig c;
    c.cell = cell;
    c.embedSize = 6;  // unlike the hidden size, so a block of the wrong input has the wrong shape
    c.hiddenSize = 10;
    c.layers = layers;
    c.bidirectional = bidirectional;
    c.attention = kindOf(variant);
    torch::manual_seed(4);
    return Seq2SeqNet(20, c);
}

}

// Seq2SeqWeights is the one place that maps the network's parameters to their roles: it must
// reach each parameter exactly once, split the weights whose columns read different inputs
// without gaps or overlaps, and hand out the parameters themselves, not copies.
class TestSeq2SeqWeights : public QObject
{
    Q_OBJECT
private slots:
    void reachesEveryParameterOnce_data();
    void reachesEveryParameterOnce();
    void blocksTileTheirParameter_data() { reachesEveryParameterOnce_data(); }
    void blocksTileTheirParameter();
    void seesChangedParameters_data() { reachesEveryParameterOnce_data(); }
    void seesChangedParameters();
};

void TestSeq2SeqWeights::reachesEveryParameterOnce_data()
{
    QTest::addColumn<QString>("variant");
    QTest::addColumn<int>("layers");
    QTest::addColumn<bool>("bidirectional");
    QTest::addColumn<int>("cell");
    for (const AttentionKind kind : attentionKinds()) {
        const char *name = attentionName(kind);
        QTest::addRow("%s, 1 layer, bidirectional", name) << QString(name) << 1 << true << int(RecurrentCell::Gru);
        QTest::addRow("%s, 3 layers, unidirectional", name) << QString(name) << 3 << false << int(RecurrentCell::Gru);
    }
    for (const RecurrentCell cell : {RecurrentCell::Rnn, RecurrentCell::Lstm})
        for (const char *name : {"bahdanau", "luong-general", "bahdanau-after"})
            QTest::addRow("%s, 2 layers, bidirectional, %s", name, cellName(cell)) << QString(name) << 2 << true
                                                                                   << int(cell);
}

void TestSeq2SeqWeights::reachesEveryParameterOnce()
{
    QFETCH(QString, variant);
    QFETCH(int, layers);
    QFETCH(bool, bidirectional);
    QFETCH(int, cell);
    Seq2SeqNet net = makeNet(variant, layers, bidirectional, RecurrentCell(cell));
    const std::vector<Field> fields = parameterFields(weightsOf(*net));
    const auto named = net->named_parameters();
    QCOMPARE(fields.size(), named.size());
    for (const auto &item : named) {
        int reached = 0;
        for (const Field &f : fields)
            reached += f.tensor.is_same(item.value()) ? 1 : 0;
        QVERIFY2(reached == 1, qPrintable(QString("%1 reached %2 times").arg(item.key().c_str()).arg(reached)));
    }
    QCOMPARE(int(weightsOf(*net).encoder.layers.size()), layers * (bidirectional ? 2 : 1));
    QCOMPARE(int(weightsOf(*net).decoder.layers.size()), layers);
}

void TestSeq2SeqWeights::blocksTileTheirParameter()
{
    QFETCH(QString, variant);
    QFETCH(int, layers);
    QFETCH(bool, bidirectional);
    QFETCH(int, cell);
    Seq2SeqNet net = makeNet(variant, layers, bidirectional, RecurrentCell(cell));
    const DecoderWeights d = weightsOf(*net).decoder;
    const int64_t hidden = 10, embed = 6, vocabulary = 20, gates = gateCount(RecurrentCell(cell)) * hidden;
    const AttentionKind kind = kindOf(variant);
    const bool attends = stepReadsContext(kind);
    QCOMPARE(d.embeddingToGates.sizes().vec(), (std::vector<int64_t>{gates, embed}));
    QCOMPARE(d.contextToGates.defined(), attends);
    QVERIFY(torch::equal(columns({d.embeddingToGates, d.contextToGates}), d.layers.front().inputWeight));

    QCOMPARE(d.stateToLogits.sizes().vec(), (std::vector<int64_t>{vocabulary, hidden}));
    QCOMPARE(d.contextToLogits.defined(), kind == AttentionKind::Bahdanau || kind == AttentionKind::Location
                                              || kind == AttentionKind::BahdanauAfter);
    QCOMPARE(d.embeddingToLogits.defined(), !isMultiplicative(kind) && kind != AttentionKind::BahdanauAfter);
    if (d.embeddingToLogits.defined())
        QCOMPARE(d.embeddingToLogits.size(1), embed);
    QVERIFY(torch::equal(columns({d.stateToLogits, d.contextToLogits, d.embeddingToLogits}), d.outputWeight));

    for (const RecurrentLayerWeights &g : d.layers) {
        QCOMPARE(g.hiddenWeight.sizes().vec(), (std::vector<int64_t>{gates, hidden}));
        QCOMPARE(g.inputBias.size(0), gates);
        QCOMPARE(g.hiddenBias.size(0), gates);
    }
}

// In-place changes (an optimiser step, a checkpoint load) show through every field, blocks
// included, without asking the accessor again.
void TestSeq2SeqWeights::seesChangedParameters()
{
    QFETCH(QString, variant);
    QFETCH(int, layers);
    QFETCH(bool, bidirectional);
    QFETCH(int, cell);
    Seq2SeqNet net = makeNet(variant, layers, bidirectional, RecurrentCell(cell));
    const Seq2SeqWeights w = weightsOf(*net);
    std::vector<Field> fields = parameterFields(w);
    for (const Field &f : viewFields(w))
        fields.push_back(f);
    std::vector<torch::Tensor> before;
    for (const Field &f : fields)
        before.push_back(f.tensor.detach().clone());
    {
        torch::NoGradGuard noGrad;
        for (auto &p : net->parameters())
            p.mul_(-2.0).add_(1.0);
    }
    for (std::size_t i = 0; i < fields.size(); ++i)
        QVERIFY2(torch::equal(fields[i].tensor, before[i] * -2.0 + 1.0), fields[i].name.c_str());
}

ATTNSCOPE_TEST(seq2seqweights, TestSeq2SeqWeights)
#include "tst_seq2seqweights.moc"
