#include "engine/word2vec/wordvectors.h"

#include <QtTest>

#include <random>

// The word2vec text format: what is written reads back equal, and damaged files are refused with
// the line and what is wrong.
class TestWordVectors : public QObject
{
    Q_OBJECT
private slots:
    void writtenFileReadsBackEqual();
    void readsGensimStyleText();
    void malformedTextIsRefused_data();
    void malformedTextIsRefused();
    void failedWriteLeavesTheOldFile();
};

void TestWordVectors::writtenFileReadsBackEqual()
{
    WordVectors v;
    v.words = {"cat", "dog", "don't", "x"};
    v.dimensions = 7;
    std::mt19937 random(3);
    std::normal_distribution<float> normal(0, 1);
    for (int i = 0; i < 28; ++i)
        v.values.push_back(normal(random) * (i % 3 == 0 ? 1e-7f : 1e3f));
    v.values[5] = 0.f;
    v.values[6] = -0.f;
    QTemporaryDir dir;
    const std::string path = dir.filePath("v.txt").toStdString();
    writeWord2VecText(path, v);
    const WordVectors back = readWord2VecText(path);
    QCOMPARE(back.words, v.words);
    QCOMPARE(back.dimensions, v.dimensions);
    QCOMPARE(back.values, v.values);  // bit-for-bit: the shortest text that reads back as the same float
}

void TestWordVectors::readsGensimStyleText()
{
    // gensim writes "%s %s\n" with numbers as repr; other tools leave a trailing space or CRLF.
    const WordVectors v = parseWord2VecText("2 3\r\nthe 0.1 -0.25 3e-05 \r\nof 1.0 2.0 3.0\r\n\n");
    QCOMPARE(v.size(), 2);
    QCOMPARE(v.words[1], std::string("of"));
    QCOMPARE(v.values[2], 3e-05f);
    QCOMPARE(v.index("of"), 1);
    QCOMPARE(v.index("and"), -1);
}

void TestWordVectors::malformedTextIsRefused_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("message");
    QTest::newRow("empty") << QByteArray() << "line 1: expected the header";
    QTest::newRow("no header") << QByteArray("cat 0.1 0.2\n") << "line 1: expected the header";
    QTest::newRow("zero words") << QByteArray("0 2\n") << "line 1";
    QTest::newRow("promises too much") << QByteArray("1000000 300\ncat 1\n") << "more than the file can hold";
    QTest::newRow("short row") << QByteArray("2 2\ncat 0.1 0.2\ndog 0.3\n") << "line 3: expected a word and 2 numbers, found 1";
    QTest::newRow("long row") << QByteArray("1 2\ncat 0.1 0.2 0.3\n") << "found 3 numbers";
    QTest::newRow("not a number") << QByteArray("1 2\ncat 0.1 abc\n") << "line 2: \"abc\" is not a number";
    QTest::newRow("infinite") << QByteArray("1 2\ncat 0.1 inf\n") << "is not a number";
    QTest::newRow("repeated word") << QByteArray("2 1\ncat 0.1\ncat 0.2\n") << "line 3: the word \"cat\" appears twice";
    QTest::newRow("truncated") << QByteArray("3 1\ncat 0.1\ndog 0.2\n") << "ends after 2 of the 3 words";
    QTest::newRow("extra lines") << QByteArray("1 1\ncat 0.1\ndog 0.2\n") << "more lines than the header";
    QTest::newRow("binary") << QByteArray("2 1\ncat \0\x01\x02", 11) << "binary data";
}

void TestWordVectors::malformedTextIsRefused()
{
    QFETCH(QByteArray, text);
    QFETCH(QString, message);
    try {
        parseWord2VecText(text.toStdString());
        QFAIL("accepted");
    } catch (const std::invalid_argument &e) {
        QVERIFY2(QString::fromUtf8(e.what()).contains(message), e.what());
    }
}

void TestWordVectors::failedWriteLeavesTheOldFile()
{
    QTemporaryDir dir;
    WordVectors v{{"cat"}, 1, {0.5f}, {}};
    QVERIFY_THROWS_EXCEPTION(std::runtime_error,
                             writeWord2VecText(dir.filePath("missing/folder/v.txt").toStdString(), v));
    QVERIFY(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).isEmpty());
}

QTEST_MAIN(TestWordVectors)
#include "tst_wordvectors.moc"
