#include "tests/common/testregistry.h"
#include "engine/core/vocabulary.h"

#include <QtTest>

class TestVocabulary : public QObject
{
    Q_OBJECT
private slots:
    void specialsHaveFixedIds();
    void buildOrdersByFrequencyAndHonoursLimits();
};

void TestVocabulary::specialsHaveFixedIds()
{
    const Vocabulary v({"cat", "dog"});
    QCOMPARE(v.id("<PAD>"), 0);
    QCOMPARE(v.id("<SOS>"), 1);
    QCOMPARE(v.id("<EOS>"), 2);
    QCOMPARE(v.id("<UNK>"), 3);
    QCOMPARE(v.id("cat"), 4);
    QCOMPARE(v.id("zebra"), Vocabulary::kUnk);
    QVERIFY(!v.contains("zebra"));
    QCOMPARE(v.word(5), std::string("dog"));
    QCOMPARE(v.size(), 6);
}

void TestVocabulary::buildOrdersByFrequencyAndHonoursLimits()
{
    const std::vector<std::vector<std::string>> sentences = {{"b", "a", "a"}, {"c", "a"}, {"<UNK>", "<UNK>"}};
    // a 3, b 1, c 1 -> a, then b and c alphabetically; the specials keep their ids however often they occur
    QCOMPARE(Vocabulary::build(sentences).words(),
             (std::vector<std::string>{"<PAD>", "<SOS>", "<EOS>", "<UNK>", "a", "b", "c"}));
    QCOMPARE(Vocabulary::build(sentences, 1).size(), 5);
    QCOMPARE(Vocabulary::build(sentences, 0, 2).words(),
             (std::vector<std::string>{"<PAD>", "<SOS>", "<EOS>", "<UNK>", "a"}));
    QCOMPARE(Vocabulary::build(sentences, 0, 3).size(), 5);
    QCOMPARE(Vocabulary::build(sentences, 0, 4).size(), 4);
    QVERIFY(Vocabulary::build(sentences) == Vocabulary::build(sentences));
    QCOMPARE(Vocabulary::build({}).size(), 4);
}

ATTNSCOPE_TEST(vocabulary, TestVocabulary)
#include "tst_vocabulary.moc"
