#include "batch.h"
#include "encoder.h"

#include <QtTest>

// Packing keeps padding out of every hidden state: a sentence encodes the same alone and in a batch.
// Alone (no padding, eval, no gradients) it takes the encoder's hand-written unpadded path.
class TestEncoder : public QObject
{
    Q_OBJECT
private slots:
    void sameAloneAndInPaddedBatch_data();
    void sameAloneAndInPaddedBatch();
};

void TestEncoder::sameAloneAndInPaddedBatch_data()
{
    QTest::addColumn<bool>("bidirectional");
    QTest::addColumn<int>("layers");
    QTest::newRow("bidirectional, 2 layers") << true << 2;
    QTest::newRow("unidirectional, 1 layer") << false << 1;
}

void TestEncoder::sameAloneAndInPaddedBatch()
{
    QFETCH(bool, bidirectional);
    QFETCH(int, layers);
    torch::manual_seed(11);
    ModelConfig config;
    config.embedSize = 12;
    config.hiddenSize = 16;
    config.layers = layers;
    config.bidirectional = bidirectional;
    Encoder encoder(20, config);
    encoder->eval();
    torch::NoGradGuard noGrad;

    const std::vector<std::vector<int>> sentences = {{5, 6, 7}, {8, 9, 10, 11, 12, 13, 14}, {15}};
    const Batch batch = makeSourceBatch(sentences);
    const EncoderOutput together = encoder(batch.source, batch.sourceLengths);
    for (std::size_t i = 0; i < sentences.size(); ++i) {
        const Batch single = makeSourceBatch({sentences[i]});
        const EncoderOutput alone = encoder(single.source, single.sourceLengths);
        const int64_t length = single.source.size(1);
        const auto inBatch = together.outputs[int64_t(i)].slice(0, 0, length);
        QVERIFY2(torch::allclose(inBatch, alone.outputs[0], 1e-5, 1e-5), qPrintable(QString("outputs of %1").arg(i)));
        QVERIFY(torch::allclose(together.hidden.select(1, int64_t(i)), alone.hidden.select(1, 0), 1e-5, 1e-5));
        // Padded positions of the batch output are exactly zero.
        QCOMPARE(together.outputs[int64_t(i)].slice(0, length).abs().sum().item<float>(), 0.0f);
    }
}

QTEST_APPLESS_MAIN(TestEncoder)
#include "tst_encoder.moc"
