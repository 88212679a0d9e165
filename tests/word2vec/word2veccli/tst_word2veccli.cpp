#include "tests/common/testregistry.h"
#include "engine/word2vec/builtincorpus.h"
#include "engine/word2vec/wordvectors.h"
#include "tests/common/clirunner.h"

#include <QtTest>

// `attnscope word2vec`, `neighbours` and `analogy` as a user runs them: the files, what they hold,
// and the exit code and message of each bad input, with nothing left behind.
class TestWord2VecCli : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void trainWritesEveryFile();
    void queriesAnswerFromTheVectorsFile();
    void badInputIsRefused_data();
    void badInputIsRefused();

private:
    using Result = CliResult;
    Result run(const QStringList &arguments) { return runAttnscope(arguments); }
    QString write(const QString &name, const QByteArray &contents);
    QTemporaryDir m_dir;
    QString m_corpus;
    QString m_vectors;
};

QString TestWord2VecCli::write(const QString &name, const QByteArray &contents)
{
    QFile file(m_dir.filePath(name));
    if (!file.open(QIODevice::WriteOnly) || file.write(contents) != contents.size())
        qFatal("cannot write %s", qPrintable(file.fileName()));
    return file.fileName();
}

void TestWord2VecCli::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_corpus = write("corpus.txt", QByteArray::fromStdString(builtInWordCorpus()));
}

void TestWord2VecCli::trainWritesEveryFile()
{
    const QString out = m_dir.filePath("run");
    const QString questions = write("questions.txt", ": family\nking queen man woman\nman woman king queen\n"
                                                     "king queen unicorn mare\n");
    const QString pairs = write("pairs.txt", "# word1 word2 score\ncat dog 9\ncat bread 1\nparis rome 8\nx y 3\n");
    const Result r = run({"word2vec", "--corpus", m_corpus, "--out", out, "--epochs", "20", "--dim", "20",
                          "--threads", "1", "--analogies", questions, "--similarity", pairs});
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.err.contains("epoch  20/20"), qPrintable(r.err));
    for (const char *name : {"vectors.txt", "metrics.json", "pca.png", "neighbours.txt"})
        QVERIFY2(QFileInfo(QDir(out).filePath(name)).size() > 0, name);

    const WordVectors vectors = readWord2VecText(QDir(out).filePath("vectors.txt").toStdString());
    QCOMPARE(vectors.dimensions, 20);
    QFile metricsFile(QDir(out).filePath("metrics.json"));
    QVERIFY(metricsFile.open(QIODevice::ReadOnly));
    const QJsonObject metrics = QJsonDocument::fromJson(metricsFile.readAll()).object();
    QCOMPARE(metrics["corpus"].toObject()["vocabulary"].toInt(), vectors.size());
    QCOMPARE(metrics["epochs"].toArray().size(), 20);
    QCOMPARE(metrics["config"].toObject()["dim"].toInt(), 20);
    QVERIFY(metrics["words_per_s"].toDouble() > 0);
    QVERIFY(metrics["peak_rss_mib"].toDouble() > 0);
    const QJsonObject analogies = metrics["analogies"].toObject();
    QCOMPARE(analogies["asked"].toInt(), 2);
    QCOMPARE(analogies["skipped"].toInt(), 1);  // unicorn and mare are not in the corpus
    const QJsonObject similarity = metrics["similarity"].toObject();
    QCOMPARE(similarity["pairs"].toInt(), 3);
    QCOMPARE(similarity["skipped"].toInt(), 1);

    QFile neighbours(QDir(out).filePath("neighbours.txt"));
    QVERIFY(neighbours.open(QIODevice::ReadOnly));
    const QStringList lines = QString::fromUtf8(neighbours.readAll()).split('\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 50);
    QVERIFY(lines.first().startsWith(QString::fromStdString(vectors.words.front()) + ":"));
    QCOMPARE(lines.first().count('('), 10);
    m_vectors = QDir(out).filePath("vectors.txt");
}

void TestWord2VecCli::queriesAnswerFromTheVectorsFile()
{
    QVERIFY(!m_vectors.isEmpty());
    const Result n = run({"neighbours", "--vectors", m_vectors, "--top", "3", "cat", "paris"});
    QCOMPARE(n.exitCode, 0);
    QVERIFY(n.out.startsWith("cat:\n"));
    QVERIFY(n.out.contains("\nparis:\n"));
    QCOMPARE(n.out.split('\n', Qt::SkipEmptyParts).size(), 8);  // two headings, three neighbours each

    const Result a = run({"analogy", "--vectors", m_vectors, "king", "man", "queen"});
    QCOMPARE(a.exitCode, 0);
    QVERIFY(a.out.startsWith("king : man :: queen : ?\n"));
    const QStringList answers = a.out.split('\n', Qt::SkipEmptyParts).mid(1);
    QCOMPARE(answers.size(), 5);
    for (const QString &answer : answers)  // the three inputs are never answers
        for (const char *input : {"king", "man", "queen"})
            QVERIFY(answer.split(' ', Qt::SkipEmptyParts).first() != input);
}

void TestWord2VecCli::badInputIsRefused_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("message");
    const QString out = m_dir.filePath("refused");
    const QString empty = write("empty.txt", "");
    const QString binary = write("binary.bin", QByteArray("\x7f" "ELF\x02\x01\x01\0\0\0\0\0", 12).repeated(50));
    const QString tiny = write("tiny.txt", "the cat sat on the mat\n");
    const QString badVectors = write("bad.vec", "3 2\ncat 0.1 0.2\ndog 0.3\n");
    QTest::newRow("no corpus") << QStringList{"word2vec", "--out", out} << 2 << "--corpus FILE and --out DIR";
    QTest::newRow("bad dim") << QStringList{"word2vec", "--corpus", tiny, "--out", out, "--dim", "0"} << 2 << "--dim expects";
    QTest::newRow("bad sample") << QStringList{"word2vec", "--corpus", tiny, "--out", out, "--sample", "-1"} << 2
                                << "--sample expects";
    QTest::newRow("missing corpus") << QStringList{"word2vec", "--corpus", m_dir.filePath("nope.txt"), "--out", out}
                                    << 1 << "nope.txt";
    QTest::newRow("empty corpus") << QStringList{"word2vec", "--corpus", empty, "--out", out} << 1 << "no words";
    QTest::newRow("binary corpus") << QStringList{"word2vec", "--corpus", binary, "--out", out} << 1 << "binary";
    QTest::newRow("fewer words than dimensions")
        << QStringList{"word2vec", "--corpus", tiny, "--out", out, "--dim", "10"} << 1 << "fewer than the 10 dimensions";
    QTest::newRow("malformed vectors") << QStringList{"neighbours", "--vectors", badVectors, "cat"} << 1 << "line 3";
    QTest::newRow("unknown word") << QStringList{"neighbours", "--vectors", m_vectors, "unicorn"} << 1
                                  << "\"unicorn\" is not in the vocabulary";
    QTest::newRow("analogy of two") << QStringList{"analogy", "--vectors", m_vectors, "king", "man"} << 2
                                    << "exactly 3 words";
    QTest::newRow("no vectors") << QStringList{"neighbours", "cat"} << 2 << "--vectors FILE is required";
}

void TestWord2VecCli::badInputIsRefused()
{
    QFETCH(QStringList, arguments);
    QFETCH(int, exitCode);
    QFETCH(QString, message);
    const Result r = run(arguments);
    QCOMPARE(r.exitCode, exitCode);
    QVERIFY2(r.err.contains(message), qPrintable(r.err));
    QVERIFY2(!QFileInfo::exists(m_dir.filePath("refused")), "a refused run left its output folder behind");
}

ATTNSCOPE_TEST(word2veccli, TestWord2VecCli)
#include "tst_word2veccli.moc"
