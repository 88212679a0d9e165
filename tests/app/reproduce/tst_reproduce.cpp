#include "tests/common/testregistry.h"
#include "tests/common/clirunner.h"

#include <QtTest>

// attnscope train writes the run as a project; attnscope reproduce trains it again and reports.
class TestReproduce : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void trainWritesTheProject();
    void reproducesBitForBitAtOneThread();
    void anotherThreadCountIsExplained();
    void badProjectsExitWithTwo_data();
    void badProjectsExitWithTwo();
    void aChangedCorpusIsNamed();

private:
    // Tiny settings: a few seconds per run on one core.
    CliResult train(const QString &out, const QStringList &extra = {});
    QTemporaryDir m_dir;
    QString m_project;
};

CliResult TestReproduce::train(const QString &out, const QStringList &extra)
{
    return runAttnscope(QStringList{"train", "--out", out, "--min-len", "2", "--max-len", "4", "--train", "300",
                                    "--val", "40", "--test", "30", "--embed", "8", "--hidden", "16", "--layers", "1",
                                    "--epochs", "2", "--threads", "1", "--lr", "0.01"}
                        + extra);
}

void TestReproduce::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QFile words(m_dir.filePath("words.txt"));
    QVERIFY(words.open(QIODevice::WriteOnly));
    words.write("red green blue cat dog sun\n");
}

void TestReproduce::trainWritesTheProject()
{
    const QString out = m_dir.filePath("run");
    const CliResult r = train(out, {"--words-file", m_dir.filePath("words.txt")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY2(r.out.contains("project.attnscope"), qPrintable(r.out));
    m_project = QDir(out).filePath("project.attnscope");
    QVERIFY(QFileInfo(m_project).size() > QFileInfo(QDir(out).filePath("model.ckpt")).size());
}

void TestReproduce::reproducesBitForBitAtOneThread()
{
    QVERIFY(!m_project.isEmpty());
    const CliResult r = runAttnscope({"reproduce", m_project});
    QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
    QVERIFY2(r.out.contains("2 epochs on 1 thread(s)"), qPrintable(r.out));
    QCOMPARE(r.out.count(QRegularExpression("^epoch +\\d+ \\| train loss .* \\(stored ",
                                            QRegularExpression::MultilineOption)),
             2);
    QVERIFY2(r.out.contains("Reproduced bit for bit"), qPrintable(r.out));
}

void TestReproduce::anotherThreadCountIsExplained()
{
    QVERIFY(!m_project.isEmpty());
    const CliResult r = runAttnscope({"reproduce", "--threads", "2", m_project});
    QVERIFY2(r.out.contains("note: the run used 1 thread(s)"), qPrintable(r.out));
    // Identical or not, the verdict is stated, and the exit code follows it.
    const bool identical = r.out.contains("Reproduced bit for bit");
    const bool within = r.out.contains("Reproduced within tolerance");
    QVERIFY2(identical || within || r.out.contains("Does not reproduce"), qPrintable(r.out));
    QCOMPARE(r.exitCode, identical || within ? 0 : 1);
}

void TestReproduce::badProjectsExitWithTwo_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("message");
    QTest::newRow("no file given") << "none" << "give exactly one project file";
    QTest::newRow("missing") << "missing" << "cannot open";
    QTest::newRow("damaged") << "damaged" << "checksum mismatch";
    QTest::newRow("truncated") << "truncated" << "truncated";
    QTest::newRow("a checkpoint") << "checkpoint" << "model checkpoint, not a project";
    QTest::newRow("bad --threads") << "threads" << "--threads expects";
}

void TestReproduce::badProjectsExitWithTwo()
{
    QFETCH(QString, kind);
    QFETCH(QString, message);
    QVERIFY(!m_project.isEmpty());
    QFile good(m_project);
    QVERIFY(good.open(QIODevice::ReadOnly));
    QByteArray bytes = good.readAll();
    QStringList arguments{"reproduce"};
    const QString bad = m_dir.filePath("bad.attnscope");
    if (kind == "missing") {
        arguments << m_dir.filePath("absent.attnscope");
    } else if (kind == "checkpoint") {
        arguments << QFileInfo(m_project).dir().filePath("model.ckpt");
    } else if (kind == "threads") {
        arguments << "--threads" << "0" << m_project;
    } else if (kind != "none") {
        if (kind == "damaged")
            bytes[bytes.size() / 2] = char(bytes[bytes.size() / 2] ^ 0x08);
        else
            bytes.chop(100);
        QFile file(bad);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(bytes);
        arguments << bad;
    }
    const CliResult r = runAttnscope(arguments);
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(message), qPrintable(r.err));
}

void TestReproduce::aChangedCorpusIsNamed()
{
    const QString corpus = m_dir.filePath("corpus.txt");
    QFile file(corpus);
    QVERIFY(file.open(QIODevice::WriteOnly));
    const QStringList words{"red", "green", "blue", "cat", "dog", "sun"};
    for (int i = 0; i < 200; ++i)
        file.write(QStringLiteral("%1 %2 %3\n").arg(words[i % 6], words[(i / 6) % 6], words[(i / 36) % 6]).toUtf8());
    file.close();
    const QString out = m_dir.filePath("corpusrun");
    const CliResult trained = train(out, {"--corpus", corpus, "--no-embed-corpus"});
    QVERIFY2(trained.exitCode == 0, qPrintable(trained.err));

    QVERIFY(file.open(QIODevice::Append));
    file.write("sun sun sun\n");
    file.close();
    const CliResult r = runAttnscope({"reproduce", QDir(out).filePath("project.attnscope")});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains("has changed since the project was saved"), qPrintable(r.err));
    QVERIFY2(r.err.contains("does not embed its text"), qPrintable(r.err));
}

ATTNSCOPE_TEST(reproduce, TestReproduce)
#include "tst_reproduce.moc"
