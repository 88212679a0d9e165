#include "tests/common/testregistry.h"
#include "engine/attention/epochreplay.h"
#include "engine/attention/weighthistory.h"
#include "engine/core/projectionseries.h"
#include "tests/common/projectiondistance.h"
#include "tests/common/tinymodel.h"

#include <QtTest>

// A run brought back: each epoch's model has that epoch's weights and is rebuilt once while it is
// looked at, and each side's maps, one per epoch, share the last epoch's basis.
class TestEpochReplay : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void modelAtGivesThatEpochAndKeepsTheLastFew();
    void mapsShareTheLastEpochsBasis_data();
    void mapsShareTheLastEpochsBasis();
    void anEpochNotKeptIsRefused();

private:
    static constexpr int kEpochs = 4;
    WeightHistory m_history;
    std::shared_ptr<const Seq2SeqModel> m_live;
};

void TestEpochReplay::initTestCase()
{
    const Vocabulary vocabulary({"red", "green", "blue", "cat", "dog", "fish"});
    // Models of other seeds stand in for the epochs: their weights differ as a run's do.
    for (int epoch = 1; epoch <= kEpochs; ++epoch)
        m_history.add(epoch, Seq2SeqModel(tinyModelConfig(), vocabulary, 20 + epoch));
    m_live = std::make_shared<const Seq2SeqModel>(tinyModelConfig(), vocabulary, 20 + kEpochs);
}

void TestEpochReplay::modelAtGivesThatEpochAndKeepsTheLastFew()
{
    EpochReplay replay(m_history, m_live);
    QCOMPARE(replay.epochs(), (std::vector<int>{1, 2, 3, 4}));
    const std::shared_ptr<const Seq2SeqModel> second = replay.modelAt(2);
    const Seq2SeqModel expected = m_history.modelAt(2, *m_live);
    QCOMPARE(second->encoderEmbeddings().values, expected.encoderEmbeddings().values);
    QVERIFY(second->encoderEmbeddings().values != replay.modelAt(3)->encoderEmbeddings().values);
    QCOMPARE(replay.modelAt(2), second);  // still cached: the same model, not rebuilt
    static_assert(EpochReplay::kCachedModels == 3);
    replay.modelAt(1);
    replay.modelAt(4);  // 2 was looked at longest ago, after 3: 3 goes, 2 stays
    QCOMPARE(replay.modelAt(2), second);
    replay.modelAt(3);
    replay.modelAt(1);
    replay.modelAt(4);  // three others looked at since 2: it goes
    QVERIFY(replay.modelAt(2) != second);
}

void TestEpochReplay::mapsShareTheLastEpochsBasis_data()
{
    QTest::addColumn<bool>("decoder");
    QTest::newRow("encoder") << false;
    QTest::newRow("decoder") << true;
}

void TestEpochReplay::mapsShareTheLastEpochsBasis()
{
    QFETCH(bool, decoder);
    EpochReplay replay(m_history, m_live);
    const EmbeddingSide side = decoder ? EmbeddingSide::Decoder : EmbeddingSide::Encoder;
    const std::vector<EmbeddingProjection> &maps = replay.maps(side);
    QCOMPARE(maps.size(), std::size_t(kEpochs));
    std::vector<EmbeddingTable> tables;
    for (int epoch = 1; epoch <= kEpochs; ++epoch) {
        const Seq2SeqModel model = m_history.modelAt(epoch, *m_live);
        tables.push_back(decoder ? model.decoderEmbeddings() : model.encoderEmbeddings());
    }
    const std::vector<EmbeddingProjection> expected = projectSeries(tables);
    for (std::size_t i = 0; i < maps.size(); ++i)
        QCOMPARE(largestDistance(maps[i], expected[i]), 0.0);
    QCOMPARE(largestDistance(maps.back(), projectEmbeddings2d(tables.back())), 0.0);
    QCOMPARE(&replay.maps(side), &maps);  // made once
}

void TestEpochReplay::anEpochNotKeptIsRefused()
{
    EpochReplay replay(m_history, m_live);
    QVERIFY_THROWS_EXCEPTION(std::out_of_range, replay.modelAt(7));
}

ATTNSCOPE_TEST(epochreplay, TestEpochReplay)
#include "tst_epochreplay.moc"
