#include "tests/common/testregistry.h"
#include "engine/core/batch.h"

#include <QtTest>

#include <algorithm>
#include <random>
#include <set>

namespace {

// `perLength` sentences of every length from 3 to 10 words, in a shuffled order.
std::vector<int> uniformLengths(int perLength)
{
    std::vector<int> lengths;
    for (int length = 3; length <= 10; ++length)
        lengths.insert(lengths.end(), std::size_t(perLength), length);
    std::mt19937_64 rng(7);
    std::shuffle(lengths.begin(), lengths.end(), rng);
    return lengths;
}

double meanLength(const std::vector<int> &batch, const std::vector<int> &lengths)
{
    double sum = 0;
    for (int i : batch)
        sum += lengths[std::size_t(i)];
    return sum / double(batch.size());
}

}

class TestBatch : public QObject
{
    Q_OBJECT
private slots:
    void everySentenceOnce_data()
    {
        QTest::addColumn<int>("sentences");
        QTest::addColumn<int>("batchSize");
        QTest::addColumn<bool>("shuffled");
        QTest::newRow("one short batch") << 5 << 16 << true;
        QTest::newRow("uneven last batch") << 1001 << 64 << true;
        QTest::newRow("fewer batches than a round") << 100 << 32 << true;
        QTest::newRow("in order") << 1000 << 128 << false;
    }
    void everySentenceOnce()
    {
        QFETCH(int, sentences);
        QFETCH(int, batchSize);
        QFETCH(bool, shuffled);
        std::vector<int> lengths = uniformLengths(sentences / 8 + 1);
        lengths.resize(std::size_t(sentences));
        std::mt19937_64 rng(1);
        const auto batches = batchOrder(lengths, batchSize, shuffled ? &rng : nullptr);
        QCOMPARE(int(batches.size()), (sentences + batchSize - 1) / batchSize);
        std::vector<int> seen;
        int full = 0;
        for (const auto &b : batches) {
            QVERIFY(!b.empty() && int(b.size()) <= batchSize);
            full += int(b.size()) == batchSize;
            seen.insert(seen.end(), b.begin(), b.end());
        }
        QCOMPARE(full, sentences / batchSize);
        std::sort(seen.begin(), seen.end());
        for (int i = 0; i < sentences; ++i)
            QCOMPARE(seen[std::size_t(i)], i);
    }

    // Each batch holds sentences of one length or two neighbouring ones.
    void batchesGroupLengths()
    {
        const std::vector<int> lengths = uniformLengths(128);
        std::mt19937_64 rng(3);
        for (const auto &b : batchOrder(lengths, 16, &rng)) {
            std::set<int> distinct;
            for (int i : b)
                distinct.insert(lengths[std::size_t(i)]);
            QVERIFY2(*distinct.rbegin() - *distinct.begin() <= 1, "a batch mixes distant lengths");
        }
    }

    // 64 batches of 8 lengths: 8 rounds of 8, each with one of the shortest 8 batches (mean under
    // 4 words) and one of the longest 8 (over 9). A plain shuffle puts both in all 8 blocks of
    // 8 with a probability of about 0.001.
    void everyRoundSpansTheLengths()
    {
        const std::vector<int> lengths = uniformLengths(128);
        for (std::uint64_t seed : {1u, 2u, 3u}) {
            std::mt19937_64 rng(seed);
            const auto batches = batchOrder(lengths, 16, &rng);
            QCOMPARE(batches.size(), std::size_t(64));
            for (std::size_t round = 0; round < 8; ++round) {
                double shortest = 100, longest = 0;
                for (std::size_t i = 8 * round; i < 8 * round + 8; ++i) {
                    shortest = std::min(shortest, meanLength(batches[i], lengths));
                    longest = std::max(longest, meanLength(batches[i], lengths));
                }
                QVERIFY2(shortest < 4 && longest > 9, qPrintable(QString("seed %1, round %2: mean lengths %3 to %4")
                                                                     .arg(seed).arg(round).arg(shortest).arg(longest)));
            }
        }
    }

    void orderDependsOnTheSeed()
    {
        const std::vector<int> lengths = uniformLengths(128);
        std::mt19937_64 a(1), b(1), c(2);
        QCOMPARE(batchOrder(lengths, 16, &a), batchOrder(lengths, 16, &b));
        std::mt19937_64 a2(1);
        QVERIFY(batchOrder(lengths, 16, &a2) != batchOrder(lengths, 16, &c));
    }
};

ATTNSCOPE_TEST(batch, TestBatch)
#include "tst_batch.moc"
