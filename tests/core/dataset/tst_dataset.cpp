#include "tests/common/testregistry.h"
#include "engine/core/dataset.h"
#include "engine/core/vocabulary.h"

#include <QtTest>

#include <cmath>
#include <fstream>
#include <sys/stat.h>
#include <set>

// Generated and corpus datasets: deterministic, well-formed, and clear about bad files.
class TestDataset : public QObject
{
    Q_OBJECT
private slots:
    void generatedIsDeterministicAndWellFormed();
    void differentSeedGivesDifferentData();
    void copyTaskKeepsOrder();
    void corpusIsSplitDeterministically();
    void corpusSkipsAndReports();
    void lineEndingsMayBeMixed();
    void badCorpusFails_data();
    void badCorpusFails();
    void invalidSettingsFail();
    void vocabularyCountsTheSourcesOnly();

private:
    std::string corpus(const std::string &bytes);
    QTemporaryDir m_dir;
    int m_files = 0;
};

std::string TestDataset::corpus(const std::string &bytes)
{
    const std::string path = m_dir.filePath(QString("corpus%1.txt").arg(m_files++)).toStdString();
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
}

static bool samePairs(const std::vector<SentencePair> &a, const std::vector<SentencePair> &b)
{
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (a[i].source != b[i].source || a[i].target != b[i].target)
            return false;
    return true;
}

void TestDataset::generatedIsDeterministicAndWellFormed()
{
    DatasetConfig c;
    const Dataset a = Dataset::build(c);
    const Dataset b = Dataset::build(c);
    QVERIFY(samePairs(a.train, b.train) && samePairs(a.val, b.val) && samePairs(a.test, b.test));
    QCOMPARE(int(a.train.size()), 8000);
    QCOMPARE(int(a.val.size()), 1000);
    QCOMPARE(int(a.test.size()), 1000);
    std::set<std::size_t> lengths;
    for (const auto &p : a.train) {
        lengths.insert(p.source.size());
        QCOMPARE(p.target, std::vector<std::string>(p.source.rbegin(), p.source.rend()));
        for (const auto &w : p.source)
            QVERIFY(std::find(c.words.begin(), c.words.end(), w) != c.words.end());
    }
    QCOMPARE(lengths, (std::set<std::size_t>{3, 4, 5, 6, 7, 8, 9, 10}));
    QCOMPARE(int(c.words.size()), 34);
    QCOMPARE(previewPairs(c, 3)[2].source, a.train[2].source);
}

void TestDataset::differentSeedGivesDifferentData()
{
    DatasetConfig c;
    c.trainSize = 50;
    const Dataset a = Dataset::build(c);
    c.seed = 43;
    QVERIFY(!samePairs(a.train, Dataset::build(c).train));
}

void TestDataset::copyTaskKeepsOrder()
{
    DatasetConfig c;
    c.task = Task::Copy;
    c.trainSize = 20;
    for (const auto &p : Dataset::build(c).train)
        QCOMPARE(p.target, p.source);
}

void TestDataset::corpusIsSplitDeterministically()
{
    std::string text;
    for (int i = 0; i < 100; ++i)
        text += "sentence number " + std::to_string(i) + " here\n";
    DatasetConfig c;
    c.corpusPath = corpus(text);
    const Dataset a = Dataset::build(c);
    QCOMPARE(int(a.train.size() + a.val.size() + a.test.size()), 100);
    QCOMPARE(int(a.val.size()), 10);
    QCOMPARE(int(a.test.size()), 10);
    QVERIFY(samePairs(a.test, Dataset::build(c).test));
    c.seed = 7;
    QVERIFY(!samePairs(a.test, Dataset::build(c).test));
}

void TestDataset::corpusSkipsAndReports()
{
    DatasetConfig c;
    c.maxLength = 5;
    c.minLength = 2;
    // CRLF, LF and a blank line mixed; one line too long, one too short; punctuation splits.
    c.corpusPath = corpus("The cat sat.\r\n\r\nsat\none two three four five six seven\ndog ran\nbig red car\n");
    const Dataset d = Dataset::build(c);
    QCOMPARE(d.skippedBlank, 1);
    QCOMPARE(d.skippedTooLong, 1);
    QCOMPARE(d.skippedTooShort, 1);
    std::vector<std::vector<std::string>> all;
    for (const auto *split : {&d.train, &d.val, &d.test})
        for (const auto &p : *split)
            all.push_back(p.source);
    QCOMPARE(int(all.size()), 3);
    QVERIFY(std::find(all.begin(), all.end(), std::vector<std::string>{"the", "cat", "sat", "."}) != all.end());
}

void TestDataset::lineEndingsMayBeMixed()
{
    // A lone CR (old Mac), CRLF and LF in one file, and no line end at the end of the file.
    DatasetConfig c;
    c.corpusPath = corpus("one two three\rfour five six\r\nseven eight nine\nten eleven twelve");
    const Dataset d = Dataset::build(c);
    std::vector<std::vector<std::string>> all;
    for (const auto *split : {&d.train, &d.val, &d.test})
        for (const auto &p : *split)
            all.push_back(p.source);
    std::sort(all.begin(), all.end());
    QCOMPARE(all, (std::vector<std::vector<std::string>>{{"four", "five", "six"},
                                                          {"one", "two", "three"},
                                                          {"seven", "eight", "nine"},
                                                          {"ten", "eleven", "twelve"}}));
    QCOMPARE(d.skippedBlank, 0);
}

void TestDataset::badCorpusFails_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("message");
    QTest::newRow("empty") << QByteArray() << "0 usable sentences";
    QTest::newRow("too few") << QByteArray("one line here\ntwo lines here\n") << "2 usable sentences";
    QTest::newRow("binary") << QByteArray("abc\0def\n", 8) << "binary";
    QTest::newRow("invalid utf-8") << QByteArray("good line here\nbad \xff\xfe line\n") << "line 2 is not valid UTF-8";
    QTest::newRow("one giant line") << QByteArray("word ").repeated(100000) << "longer than";
    QTest::newRow("missing") << QByteArray("<missing>") << "cannot open";
    QTest::newRow("directory") << QByteArray("<directory>") << "is a directory";
    QTest::newRow("unreadable path") << QByteArray("<under a file>") << "cannot open";
    // Opening a FIFO blocks until a writer appears: it must be refused, not waited on.
    QTest::newRow("fifo") << QByteArray("<fifo>") << "not a regular file";
    QTest::newRow("random bytes") << QByteArray("\x8f\x01\xc3\x28\xa0\xa1\xe2\x28\xa1 x y\n") << "not valid UTF-8";
}

void TestDataset::badCorpusFails()
{
    QFETCH(QByteArray, bytes);
    QFETCH(QString, message);
    DatasetConfig c;
    if (bytes == "<missing>")
        c.corpusPath = m_dir.filePath("absent.txt").toStdString();
    else if (bytes == "<directory>")
        c.corpusPath = m_dir.path().toStdString();
    else if (bytes == "<under a file>")
        c.corpusPath = corpus("a b c\n") + "/below";
    else if (bytes == "<fifo>") {
        c.corpusPath = m_dir.filePath("pipe").toStdString();
        QCOMPARE(::mkfifo(c.corpusPath.c_str(), 0600), 0);
    }
    else
        c.corpusPath = corpus(bytes.toStdString());
    try {
        Dataset::build(c);
        QFAIL("building should have failed");
    } catch (const DatasetError &e) {
        QVERIFY2(QString(e.what()).contains(message), e.what());
    }
}

void TestDataset::invalidSettingsFail()
{
    DatasetConfig c;
    c.minLength = 5;
    c.maxLength = 3;
    QVERIFY(!validate(c).empty());
    QVERIFY_THROWS_EXCEPTION(DatasetError, Dataset::build(c));
    c = DatasetConfig();
    c.words.clear();
    QVERIFY(QString::fromStdString(validate(c)).contains("word list"));
    c = DatasetConfig();
    c.trainSize = 0;
    QVERIFY(!validate(c).empty());
    c = DatasetConfig();
    c.corpusPath = "corpus.txt";
    c.valFraction = std::nan("");
    QVERIFY(QString::fromStdString(validate(c)).contains("fractions"));
}

void TestDataset::vocabularyCountsTheSourcesOnly()
{
    const std::vector<SentencePair> pairs = {{{"b", "a", "a"}, {"a", "a", "b"}}, {{"c", "a"}, {"a", "c"}}};
    QCOMPARE(Vocabulary::build(pairs).words(),
             (std::vector<std::string>{"<PAD>", "<SOS>", "<EOS>", "<UNK>", "a", "b", "c"}));
    // b and c are seen once as sources, though their targets repeat them.
    QCOMPARE(Vocabulary::build(pairs, 0, 2).words(),
             (std::vector<std::string>{"<PAD>", "<SOS>", "<EOS>", "<UNK>", "a"}));
    QCOMPARE(Vocabulary::build(pairs, 0, 4).size(), 4);
}

ATTNSCOPE_TEST(dataset, TestDataset)
#include "tst_dataset.moc"
