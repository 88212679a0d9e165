#include "tests/common/testregistry.h"
#include "engine/attention/seq2seqmodel.h"
#include "engine/attention/seq2seqnet.h"
#include "engine/attention/weighthistory.h"
#include "engine/core/binaryio.h"
#include "engine/core/torchapi.h"
#include "tests/common/tinymodel.h"

#include <QtTest>

// Per-epoch copies give back each epoch's weights at half precision, survive their bytes, stay
// within their budget and refuse damage.
class TestWeightHistory : public QObject
{
    Q_OBJECT
private slots:
    void modelAtGivesThatEpochsWeightsInHalfPrecision();
    void modelAtCutsTheHistoryToItsEpoch();
    void anEpochAddedAgainReplacesItsCopy();
    void aCopyMadeWhileTrainingKeepsThatEpochsWeights();
    void unknownEpochOrOtherModelIsRefused();
    void bytesRoundTripGivesTheSameModels();
    void budgetKeepsFirstLatestAndASpread();
    void damagedBytesAreRefused();

private:
    static Seq2SeqModel model(std::uint64_t seed);
    static void perturb(Seq2SeqModel &model, double by);
    static void compareToHalf(const Seq2SeqModel &restored, const Seq2SeqModel &original);
};

Seq2SeqModel TestWeightHistory::model(std::uint64_t seed)
{
    return Seq2SeqModel(tinyModelConfig(), Vocabulary({"red", "green", "blue", "cat"}), seed);
}

void TestWeightHistory::perturb(Seq2SeqModel &model, double by)
{
    torch::NoGradGuard noGrad;
    for (auto &p : model.net()->parameters())
        p.add_(by);
}

void TestWeightHistory::compareToHalf(const Seq2SeqModel &restored, const Seq2SeqModel &original)
{
    const auto a = restored.net()->named_parameters(true);
    const auto b = original.net()->named_parameters(true);
    QCOMPARE(a.size(), b.size());
    for (const auto &item : b) {
        const torch::Tensor expected = item.value().detach().to(torch::kHalf).to(torch::kFloat);
        QVERIFY2(torch::equal(a[item.key()].detach(), expected), item.key().c_str());
    }
}

void TestWeightHistory::modelAtGivesThatEpochsWeightsInHalfPrecision()
{
    Seq2SeqModel m = model(1);
    const Seq2SeqModel first = m.clone();
    WeightHistory history;
    history.add(1, m);
    perturb(m, 0.25);
    history.add(2, m);
    QCOMPARE(history.epochs(), (std::vector<int>{1, 2}));
    compareToHalf(history.modelAt(1, m), first);
    compareToHalf(history.modelAt(2, first), m);
    QCOMPARE(history.bytes(), std::size_t(2 * 2 * m.parameterCount()));
}

void TestWeightHistory::modelAtCutsTheHistoryToItsEpoch()
{
    Seq2SeqModel m = model(2);
    for (int e = 1; e <= 3; ++e)
        m.history.push_back(EpochStats{e, 1.0 / e});
    WeightHistory history;
    history.add(2, m);
    const Seq2SeqModel at2 = history.modelAt(2, m);
    QCOMPARE(int(at2.history.size()), 2);
    QCOMPARE(at2.history.back().epoch, 2);
    QCOMPARE(at2.vocabulary().words(), m.vocabulary().words());
}

void TestWeightHistory::anEpochAddedAgainReplacesItsCopy()
{
    Seq2SeqModel m = model(3);
    WeightHistory history;
    history.add(1, m);
    perturb(m, -0.5);
    history.add(1, m);
    QCOMPARE(history.epochs(), std::vector<int>{1});
    compareToHalf(history.modelAt(1, model(3)), m);
}

// The worker copies an epoch's weights and trains on; the window keeps the copy later.
void TestWeightHistory::aCopyMadeWhileTrainingKeepsThatEpochsWeights()
{
    Seq2SeqModel m = model(5);
    const Seq2SeqModel atEpoch2 = m.clone();
    WeightHistory::Copy copy = WeightHistory::copyOf(2, m);
    perturb(m, 0.25);
    WeightHistory history;
    history.add(std::move(copy));
    QCOMPARE(history.epochs(), std::vector<int>{2});
    QCOMPARE(history.bytes(), 2 * std::size_t(m.parameterCount()));
    compareToHalf(history.modelAt(2, model(5)), atEpoch2);
}

void TestWeightHistory::unknownEpochOrOtherModelIsRefused()
{
    WeightHistory history;
    history.add(1, model(4));
    QVERIFY_THROWS_EXCEPTION(std::out_of_range, history.modelAt(2, model(4)));
    ModelConfig wider = tinyModelConfig();
    wider.hiddenSize = 48;
    const Seq2SeqModel other(wider, Vocabulary({"red", "green", "blue", "cat"}), 4);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, history.modelAt(1, other));
}

void TestWeightHistory::bytesRoundTripGivesTheSameModels()
{
    Seq2SeqModel m = model(5);
    WeightHistory history;
    for (int e = 1; e <= 3; ++e) {
        perturb(m, 0.1 * e);
        history.add(e, m);
    }
    const WeightHistory back = WeightHistory::decode(history.encode());
    QCOMPARE(back.epochs(), history.epochs());
    QCOMPARE(back.bytes(), history.bytes());
    for (int e : history.epochs()) {
        const Seq2SeqModel a = history.modelAt(e, m), b = back.modelAt(e, m);
        for (const auto &item : a.net()->named_parameters(true))
            QVERIFY(torch::equal(item.value(), b.net()->named_parameters(true)[item.key()]));
        const std::vector<std::string> sentence{"red", "cat", "blue"};
        QCOMPARE(a.decode(sentence).words(), b.decode(sentence).words());
    }
}

void TestWeightHistory::budgetKeepsFirstLatestAndASpread()
{
    const Seq2SeqModel m = model(6);
    const std::size_t copyBytes = std::size_t(2 * m.parameterCount());
    WeightHistory history(4 * copyBytes);
    for (int e = 1; e <= 10; ++e) {
        history.add(e, m);
        QVERIFY(history.bytes() <= history.budgetBytes());
    }
    const std::vector<int> kept = history.epochs();
    QCOMPARE(int(kept.size()), 4);
    QCOMPARE(kept.front(), 1);
    QCOMPARE(kept.back(), 10);
    // No two neighbours closer than 2 epochs when 4 of 10 are kept: the drops spread them out.
    for (std::size_t i = 1; i < kept.size(); ++i)
        QVERIFY2(kept[i] - kept[i - 1] >= 2, QByteArray::number(kept[i]));
}

void TestWeightHistory::damagedBytesAreRefused()
{
    WeightHistory history;
    history.add(1, model(7));
    history.add(2, model(8));
    const std::string good = history.encode();
    for (std::size_t cut = 0; cut < good.size(); cut += good.size() / 10 + 1)
        QVERIFY_THROWS_EXCEPTION(BinaryFormatError, WeightHistory::decode(good.substr(0, cut)));
    QVERIFY_THROWS_EXCEPTION(BinaryFormatError, WeightHistory::decode(good + "x"));
    std::string hugeCount = good;
    hugeCount[3] = char(0x7f);
    QVERIFY_THROWS_EXCEPTION(BinaryFormatError, WeightHistory::decode(hugeCount));
}

ATTNSCOPE_TEST(weighthistory, TestWeightHistory)
#include "tst_weighthistory.moc"
