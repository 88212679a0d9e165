#include "tests/common/testregistry.h"
#include "engine/charlm/chartext.h"

#include <QtTest>

// How the character lab reads a text: characters and alphabet, the validation split and why there
// is none, the streams training cuts it into, refusals, and what the preview says.
class TestCharText : public QObject
{
    Q_OBJECT
private slots:
    void validationSplit_data();
    void validationSplit();
    void streamsCoverEveryTargetOnce_data();
    void streamsCoverEveryTargetOnce();
    void everyStreamHasTargets();
    void badTextIsRefused_data();
    void badTextIsRefused();
    void tooLongTextIsRefused();
    void crlfReadsAsLfWithoutByteOrderMark();
    void nonAsciiCharacters();
    void previewWarnings();
    void parameterCount();
};

namespace {

std::string textOf(int64_t length)
{
    std::string s;
    for (int64_t i = 0; i < length; ++i)
        s += "abcdefg hij\n"[i % 12];
    return s;
}

}

void TestCharText::validationSplit_data()
{
    QTest::addColumn<qint64>("length");
    QTest::addColumn<double>("share");
    QTest::addColumn<int>("seqLen");
    QTest::addColumn<qint64>("trainLength");
    QTest::newRow("share of a long text") << qint64(10000) << 0.05 << 64 << qint64(9500);
    QTest::newRow("at least a window and its next character") << qint64(1000) << 0.05 << 64 << qint64(1000 - 65);
    QTest::newRow("two windows and one left to train") << qint64(2 * 64 + 1 + 65) << 0.05 << 64 << qint64(2 * 64 + 1);
    QTest::newRow("one short of that: none") << qint64(2 * 64 + 65) << 0.05 << 64 << qint64(2 * 64 + 65);
    QTest::newRow("a pangram: none") << qint64(44) << 0.05 << 64 << qint64(44);
    QTest::newRow("share 0: none") << qint64(10000) << 0.0 << 64 << qint64(10000);
}

void TestCharText::validationSplit()
{
    QFETCH(qint64, length);
    QFETCH(double, share);
    QFETCH(int, seqLen);
    QFETCH(qint64, trainLength);
    const CharText text = buildCharText(textOf(length), share, seqLen);
    QCOMPARE(text.length(), length);
    QCOMPARE(text.trainLength, trainLength);
    QCOMPARE(text.validationLength(), length - trainLength);
    if (trainLength < length) {
        QVERIFY(text.validationNote.empty());
    } else {
        QVERIFY(QString::fromStdString(text.validationNote).startsWith("No validation"));
        if (share > 0)
            QVERIFY2(QString::fromStdString(text.validationNote).contains(QString::number(length)), text.validationNote.c_str());
        else
            QVERIFY(QString::fromStdString(text.validationNote).contains("share is 0"));
    }
}

void TestCharText::streamsCoverEveryTargetOnce_data()
{
    QTest::addColumn<qint64>("trainLength");
    QTest::addColumn<int>("batch");
    QTest::addColumn<int>("seqLen");
    QTest::addColumn<int>("streams");
    QTest::addColumn<qint64>("streamLength");
    QTest::addColumn<qint64>("windows");
    // 1000 targets make 15 windows of 64: 15 streams of 67 (the last of 62), two windows each.
    QTest::newRow("short text, fewer streams") << qint64(1001) << 32 << 64 << 15 << qint64(67) << qint64(2);
    QTest::newRow("long text, the batch") << qint64(100001) << 32 << 64 << 32 << qint64(3125) << qint64(49);
    QTest::newRow("a pangram") << qint64(44) << 32 << 64 << 1 << qint64(43) << qint64(1);
    QTest::newRow("one stream asked") << qint64(500) << 1 << 100 << 1 << qint64(499) << qint64(5);
    QTest::newRow("nothing to predict") << qint64(1) << 32 << 64 << 0 << qint64(0) << qint64(0);
}

void TestCharText::streamsCoverEveryTargetOnce()
{
    QFETCH(qint64, trainLength);
    QFETCH(int, batch);
    QFETCH(int, seqLen);
    QFETCH(int, streams);
    QFETCH(qint64, streamLength);
    QFETCH(qint64, windows);
    const CharStreams s = charStreams(trainLength, batch, seqLen);
    QCOMPARE(s.streams, streams);
    QCOMPARE(s.streamLength, streamLength);
    QCOMPARE(s.windowsPerEpoch, windows);
    QCOMPARE(s.targetsPerEpoch, std::max<qint64>(0, trainLength - 1));
}

void TestCharText::everyStreamHasTargets()
{
    // The streams cover the targets in order, each streamLength long but the last, which may be
    // shorter but not empty; each at least one window long when there are several.
    for (int64_t trainLength = 2; trainLength < 400; trainLength += 3)
        for (int batch : {1, 2, 3, 7, 32, 64})
            for (int seqLen : {1, 2, 3, 5, 16, 64}) {
                const CharStreams s = charStreams(trainLength, batch, seqLen);
                const int64_t targets = trainLength - 1;
                const QByteArray where = QByteArray::number(qint64(trainLength)) + " characters, batch " +
                                         QByteArray::number(batch) + ", seq-len " + QByteArray::number(seqLen);
                QVERIFY2(s.streams >= 1 && s.streams <= batch, where.constData());
                QVERIFY2(int64_t(s.streams) * s.streamLength >= targets, where.constData());
                QVERIFY2(int64_t(s.streams - 1) * s.streamLength < targets, where.constData());
                QVERIFY2(s.streams == 1 || s.streamLength >= seqLen, where.constData());
                QCOMPARE(s.windowsPerEpoch, (s.streamLength + seqLen - 1) / seqLen);
            }
}

void TestCharText::badTextIsRefused_data()
{
    QTest::addColumn<QByteArray>("utf8");
    QTest::addColumn<QString>("message");
    QTest::newRow("empty") << QByteArray() << "The text is empty";
    QTest::newRow("NUL bytes") << QByteArray("abc\0def", 7) << "binary file";
    QTest::newRow("control bytes") << QByteArray("\x01\x02\x03\x04 abc") << "binary file";
    QTest::newRow("one character") << QByteArray("a") << "one character";
    QTest::newRow("a line end alone") << QByteArray("\r\n") << "one character";
    QTest::newRow("one character repeated") << QByteArray("aaaaaaaa") << "one character repeated";
    QTest::newRow("blank lines") << QByteArray("\n\n\r\n\n") << "one character repeated";
}

void TestCharText::badTextIsRefused()
{
    QFETCH(QByteArray, utf8);
    QFETCH(QString, message);
    try {
        buildCharText(utf8.toStdString(), 0.05, 64);
        QFAIL("accepted");
    } catch (const std::invalid_argument &e) {
        QVERIFY2(QString::fromUtf8(e.what()).contains(message), e.what());
    }
}

void TestCharText::tooLongTextIsRefused()
{
    try {
        buildCharText(std::string(std::size_t(kMaxCharTextLength) + 1, 'a'), 0.05, 64);
        QFAIL("accepted");
    } catch (const std::invalid_argument &e) {
        QVERIFY2(QString(e.what()).contains("at most 67,108,864"), e.what());
    }
}

void TestCharText::crlfReadsAsLfWithoutByteOrderMark()
{
    const CharText text = buildCharText("one\r\ntwo\r\n\r\nthree\rfour\n", 0, 8);
    QVERIFY(text.text == U"one\ntwo\n\nthree\rfour\n");
    QCOMPARE(text.idOf(U'\r'), 1);  // a lone carriage return is a character like any other
    QVERIFY(text.alphabet == U"\n\refhnortuw");
    QVERIFY(buildCharText("a\r\nb\r\n", 0, 8).alphabet == U"\nab");
    // Windows editors' byte order mark is not part of the text.
    QVERIFY(buildCharText("\xEF\xBB\xBF" "ab\r\nba", 0, 8).text == U"ab\nba");
}

void TestCharText::nonAsciiCharacters()
{
    const CharText text = buildCharText("n\xC3\xA9 \xE6\x97\xA5\xE6\x9C\xAC n\xC3\xA9 \xF0\x9F\x98\x80", 0, 8);
    QVERIFY(text.text == U"n\u00E9 \u65E5\u672C n\u00E9 \U0001F600");
    QVERIFY(text.alphabet == U" n\u00E9\u65E5\u672C\U0001F600");
    QCOMPARE(text.length(), int64_t(10));
    for (int64_t i = 0; i < text.length(); ++i)
        QCOMPARE(text.alphabet[std::size_t(text.ids[std::size_t(i)])], text.text[std::size_t(i)]);
    QCOMPARE(text.idOf(U'\u65E5'), 3);
    QCOMPARE(text.idOf(U'x'), -1);
    // A stray byte that is not UTF-8 reads as U+FFFD.
    const CharText stray = buildCharText("hello \xFF world, hello again", 0, 8);
    QVERIFY(stray.idOf(U'\uFFFD') >= 0);
}

void TestCharText::previewWarnings()
{
    CharModelConfig model;
    CharTrainingConfig training;
    const CharText pangram = buildCharText("The quick brown fox jumps over the lazy dog.", training.val, training.seqLen);
    const CharTextPreview small = previewCharText(pangram, model, training);
    QCOMPARE(small.characters, int64_t(44));
    QCOMPARE(small.alphabet, pangram.alphabetSize());
    QCOMPARE(small.trainCharacters, int64_t(44));
    QCOMPARE(small.validationCharacters, int64_t(0));
    QCOMPARE(small.validationNote, pangram.validationNote);
    QCOMPARE(small.streams.streams, 1);
    QCOMPARE(small.parameters, charModelParameterCount(model, pangram.alphabetSize()));
    QCOMPARE(small.warnings.size(), std::size_t(2));
    QVERIFY2(QString::fromStdString(small.warnings[0]).contains("read as 1 stream."), small.warnings[0].c_str());
    QVERIFY2(QString::fromStdString(small.warnings[1]).contains("by heart"), small.warnings[1].c_str());

    model.hidden = 16;
    model.embed = 4;
    const CharText longText = buildCharText(textOf(200000), training.val, training.seqLen);
    const CharTextPreview large = previewCharText(longText, model, training);
    QVERIFY(large.warnings.empty());
    QCOMPARE(large.validationCharacters, int64_t(10000));
    QCOMPARE(large.streams.streams, training.batch);
}

void TestCharText::parameterCount()
{
    CharModelConfig gru;
    gru.cell = RecurrentCell::Gru;
    gru.embed = 4;
    gru.hidden = 5;
    gru.layers = 2;
    // Embedding 10 x 4; layer 1: 3 x 5 x (4 + 5 + 2); layer 2: 3 x 5 x (5 + 5 + 2); output 10 x 5 + 10.
    QCOMPARE(charModelParameterCount(gru, 10), int64_t(40 + 165 + 180 + 60));
    CharModelConfig rnn;
    rnn.cell = RecurrentCell::Rnn;
    rnn.embed = 0;
    rnn.hidden = 2;
    rnn.layers = 1;
    // One-hot: 2 x (3 + 2 + 2), output 3 x 2 + 3.
    QCOMPARE(charModelParameterCount(rnn, 3), int64_t(14 + 9));
}

ATTNSCOPE_TEST(chartext, TestCharText)
#include "tst_chartext.moc"
