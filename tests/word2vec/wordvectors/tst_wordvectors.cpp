#include "tests/common/testregistry.h"
#include "engine/word2vec/wordvectors.h"

#include <QtTest>

#include <cmath>
#include <cstring>
#include <random>

// The word2vec text and binary formats: what is written reads back equal, gensim's files read as
// gensim wrote them, each format is told by its content, and damaged files are refused with the
// line or word and what is wrong.
class TestWordVectors : public QObject
{
    Q_OBJECT
private slots:
    void writtenFileReadsBackEqual();
    void readsGensimStyleText();
    void malformedTextIsRefused_data();
    void malformedTextIsRefused();
    void failedWriteLeavesTheOldFile();
    void binaryReadsWithOrWithoutNewlines();
    void readsGensimBinary();
    void formatIsToldByTheContent();
    void malformedBinaryIsRefused_data();
    void malformedBinaryIsRefused();
    void sniffsVectorFiles_data();
    void sniffsVectorFiles();
};

namespace {

WordVectors sampleVectors()
{
    WordVectors v;
    v.words = {"cat", "dog", "don't", "x", "caf\xC3\xA9"};
    v.dimensions = 7;
    std::mt19937 random(3);
    std::normal_distribution<float> normal(0, 1);
    for (int i = 0; i < 35; ++i)
        v.values.push_back(normal(random) * (i % 3 == 0 ? 1e-7f : 1e3f));
    v.values[5] = 0.f;
    v.values[6] = -0.f;
    return v;
}

bool sameBits(const std::vector<float> &a, const std::vector<float> &b)
{
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

std::string readFixture(const char *name)
{
    QFile file(QFINDTESTDATA(name));
    return file.open(QIODevice::ReadOnly) ? file.readAll().toStdString() : std::string();
}

// Why `parse` refuses `bytes`, or "accepted".
QString refusal(WordVectors (*parse)(const std::string &), const QByteArray &bytes)
{
    try {
        parse(bytes.toStdString());
    } catch (const std::invalid_argument &e) {
        return QString::fromUtf8(e.what());
    }
    return QStringLiteral("accepted");
}

// The binary record of one word: its bytes, a space and its values as float32s.
std::string record(const std::string &word, std::vector<float> values)
{
    return word + ' ' + std::string(reinterpret_cast<const char *>(values.data()), values.size() * sizeof(float));
}

}

// Both formats read back bit for bit, the text one as the shortest text that reads back as the same float.
void TestWordVectors::writtenFileReadsBackEqual()
{
    const WordVectors v = sampleVectors();
    QTemporaryDir dir;
    const std::string text = dir.filePath("v.txt").toStdString(), binary = dir.filePath("v.bin").toStdString();
    writeWord2VecText(text, v);
    writeWord2VecBinary(binary, v);
    for (const WordVectors &back : {readWord2VecText(text), readWord2Vec(binary)}) {
        QCOMPARE(back.words, v.words);
        QCOMPARE(back.dimensions, v.dimensions);
        QVERIFY(sameBits(back.values, v.values));
    }
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
    const QString what = refusal(parseWord2VecText, text);
    QVERIFY2(what.contains(message), qPrintable(what));
}

void TestWordVectors::failedWriteLeavesTheOldFile()
{
    QTemporaryDir dir;
    WordVectors v{{"cat"}, 1, {0.5f}, {}};
    QVERIFY_THROWS_EXCEPTION(std::runtime_error,
                             writeWord2VecText(dir.filePath("missing/folder/v.txt").toStdString(), v));
    QVERIFY(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).isEmpty());
}

// Written as word2vec writes it, a newline after each vector, and read without the newlines too,
// as gensim writes.
void TestWordVectors::binaryReadsWithOrWithoutNewlines()
{
    const WordVectors v = sampleVectors();
    const std::string bytes = formatWord2VecBinary(v);
    QCOMPARE(bytes.substr(0, 4), std::string("5 7\n"));
    std::string withoutNewlines = bytes.substr(0, 4);
    for (int w = 0; w < v.size(); ++w)
        withoutNewlines += record(v.words[std::size_t(w)], {v.values.begin() + w * 7, v.values.begin() + (w + 1) * 7});
    QCOMPARE(bytes.size(), withoutNewlines.size() + std::size_t(v.size()));
    QVERIFY(sameBits(parseWord2VecBinary(bytes).values, v.values));
    QVERIFY(sameBits(parseWord2VecBinary(withoutNewlines).values, v.values));
    QCOMPARE(parseWord2VecBinary(withoutNewlines).words, v.words);
}

// A file gensim 4.2 wrote with save_word2vec_format(binary=True) holds the numbers of the text file
// it wrote beside it. One vector begins with the bytes of '\n', ' ', '\n': a reader that looked for
// line ends inside vectors would lose it.
void TestWordVectors::readsGensimBinary()
{
    const std::string binary = readFixture("vectors-gensim-4.2.bin");
    const std::string text = readFixture("vectors-gensim-4.2.txt");
    QVERIFY(!binary.empty() && !text.empty());
    const WordVectors b = parseWord2VecBinary(binary), t = parseWord2VecText(text);
    QCOMPARE(b.words, (std::vector<std::string>{"the", "cat", "na\xC3\xAFve", "</s>", "x"}));
    QCOMPARE(b.words, t.words);
    QCOMPARE(b.dimensions, 4);
    QVERIFY(sameBits(b.values, t.values));
    QCOMPARE(b.values[3], 1e10f);
    QVERIFY(std::signbit(b.values[13]));  // </s>'s -0.0
}

void TestWordVectors::formatIsToldByTheContent()
{
    const WordVectors v = sampleVectors();
    QVERIFY(sameBits(parseWord2Vec(formatWord2VecBinary(v)).values, v.values));
    QVERIFY(sameBits(parseWord2Vec(formatWord2VecText(v)).values, v.values));
    // Text in an encoding other than UTF-8 is still text: a binary reading of it would not fail.
    const WordVectors latin1 = parseWord2Vec("2 2\ncaf\xE9 0.5 1\nna\xEFve 2 3\n");
    QCOMPARE(latin1.words[0], std::string("caf\xE9"));
    QCOMPARE(latin1.values, (std::vector<float>{0.5f, 1, 2, 3}));
    // A binary vector whose bytes start like a number, "1234" and a space, is told by its control bytes.
    const std::string vector("1234\x20\0\0\x40", 8);
    std::vector<float> values(2);
    std::memcpy(values.data(), vector.data(), vector.size());
    QVERIFY(sameBits(parseWord2Vec("1 2\na " + vector).values, values));
}

void TestWordVectors::malformedBinaryIsRefused_data()
{
    const std::string two = "2 2\n" + record("cat", {0.5f, 1}) + '\n' + record("dog", {2, 3}) + '\n';
    QCOMPARE(parseWord2VecBinary(two).size(), 2);
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("message");
    const auto row = [](const char *name, const std::string &bytes, const char *message) {
        QTest::newRow(name) << QByteArray::fromStdString(bytes) << QString(message);
    };
    row("empty", "", "expected the header");
    row("no header", record("cat", {0.5f, 1}), "expected the header");
    row("absurd dimensions", "1 1000000\n" + record("cat", {1}), "expected the header");
    row("promises too much", "100000000 300\n" + two.substr(4), "more than the file can hold");
    row("huge count", "9223372036854775807 1\n" + two.substr(4), "more than the file can hold");
    row("cut in a vector", two.substr(0, two.size() - 4), "word 2: the file ends inside the vector of \"dog\"");
    row("cut in a word", "2 2\n" + record("cat", {0.5f, 1}) + "\ndogdogdog",
        "word 2: the file ends after 1 of the 2 words");
    row("cut after a word", "3 2\n" + record("longword1", {0.5f, 1}) + record("longword2", {2, 3}),
        "word 3: the file ends after 2 of the 3 words");
    row("repeated word", "2 2\n" + record("cat", {0.5f, 1}) + record("cat", {2, 3}),
        "word 2: the word \"cat\" appears twice");
    row("not finite", "1 2\n" + record("cat", {0.5f, std::nanf("")}), "not a finite number");
    row("infinite", "1 2\n" + record("cat", {INFINITY, 1}), "not a finite number");
    row("no word", "2 2\n" + record("cat", {0.5f, 1}) + record("", {2, 3}), "word 2: no word before the vector");
    row("control bytes in a word", "1 2\n" + record("c\x01t", {0.5f, 1}), "word 1: no word before the vector");
    row("extra data", two + "x", "word 3: more data than the header's 2 words");
}

void TestWordVectors::malformedBinaryIsRefused()
{
    QFETCH(QByteArray, bytes);
    QFETCH(QString, message);
    const QString what = refusal(parseWord2VecBinary, bytes);
    QVERIFY2(what.contains(message), qPrintable(what));
}

void TestWordVectors::sniffsVectorFiles_data()
{
    const WordVectors v = sampleVectors();
    QTest::addColumn<QByteArray>("start");
    QTest::addColumn<int>("format");
    const auto row = [](const char *name, const std::string &bytes, Word2VecFormat format) {
        QTest::newRow(name) << QByteArray::fromStdString(bytes) << int(format);
    };
    row("text", formatWord2VecText(v).substr(0, 64), Word2VecFormat::Text);
    row("text, first line cut", formatWord2VecText(v).substr(0, 14), Word2VecFormat::Text);
    row("binary", formatWord2VecBinary(v).substr(0, 64), Word2VecFormat::Binary);
    row("gensim's binary", readFixture("vectors-gensim-4.2.bin"), Word2VecFormat::Binary);
    row("gensim's text", readFixture("vectors-gensim-4.2.txt"), Word2VecFormat::Text);
    row("empty", "", Word2VecFormat::None);
    row("header only", "5 7\n", Word2VecFormat::None);
    row("prose", "The cat sat on the mat.\nThe dog sat on the log.\n", Word2VecFormat::None);
    row("a corpus line of numbers", "12 monkeys\n", Word2VecFormat::None);
    row("table", "word,x,y\ncat,0.5,1\n", Word2VecFormat::None);
    row("checkpoint", std::string("ATNSCKPT\x04\0\0\0", 12), Word2VecFormat::None);
    row("header, then no number", "2 3\nthe cat sat\n", Word2VecFormat::None);
}

void TestWordVectors::sniffsVectorFiles()
{
    QFETCH(QByteArray, start);
    QFETCH(int, format);
    QCOMPARE(int(word2vecFormat(start.toStdString())), format);
}

ATTNSCOPE_TEST(wordvectors, TestWordVectors)
#include "tst_wordvectors.moc"
