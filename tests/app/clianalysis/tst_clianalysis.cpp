#include "tests/common/testregistry.h"
#include "tests/common/clirunner.h"

#include <QtTest>

// compare and explain as a user runs them: the files and figures they write.
class TestCliAnalysis : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void compareWritesEveryVariant();
    void compareSeedsRepeatEachVariant();
    void explainGivesEveryFigureAsJson();
    void explainOneSentenceWordByWord();

private:
    using Result = CliResult;
    Result run(const QStringList &arguments) { return runAttnscope(arguments); }
    QTemporaryDir m_dir;
};

void TestCliAnalysis::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QFile words(m_dir.filePath("words.txt"));
    QVERIFY(words.open(QIODevice::WriteOnly));
    words.write("red green blue cat dog sun\n");
}

void TestCliAnalysis::compareWritesEveryVariant()
{
    const QString out = m_dir.filePath("compare");
    const Result r = run({"compare", "--out", out, "--attention", "bahdanau,none", "--words-file",
                          m_dir.filePath("words.txt"), "--min-len", "2", "--max-len", "4", "--train", "300", "--val",
                          "30", "--test", "30", "--embed", "16", "--hidden", "32", "--layers", "1", "--epochs", "2",
                          "--threads", "1", "--probe-max-len", "6", "--probe", "100"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY(r.out.contains("== bahdanau (1 of 2) =="));
    QVERIFY(r.out.contains("Probe exact match by length"));
    for (const char *name : {"comparison.json", "comparison.png", "bahdanau.ckpt", "none.ckpt"})
        QVERIFY2(QFileInfo::exists(QDir(out).filePath(name)), name);
    QCOMPARE(QImage(QDir(out).filePath("comparison.png")).size(), QSize(1000, 600));

    QFile file(QDir(out).filePath("comparison.json"));
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QJsonObject json = QJsonDocument::fromJson(file.readAll()).object();
    const QJsonArray runs = json["runs"].toArray();
    QCOMPARE(runs.size(), 2);
    QCOMPARE(runs[0].toObject()["attention"].toString(), QString("bahdanau"));
    QCOMPARE(runs[1].toObject()["attention"].toString(), QString("none"));
    for (const QJsonValue &value : runs) {
        const QJsonObject run = value.toObject();
        QCOMPARE(run["epochs"].toInt(), 2);
        QVERIFY(run["seconds"].toDouble() > 0);
        QVERIFY(run["parameters"].toDouble() > 0);
        const QJsonObject test = run["test"].toObject();
        QCOMPARE(test["sentences"].toInt(), 30);
        QVERIFY(test["exact_match"].toDouble() >= 0 && test["exact_match"].toDouble() <= 1);
        QVERIFY(test.contains("token_accuracy"));
        QCOMPARE(run["by_length"].toObject().keys(), (QStringList{"2", "3", "4", "5", "6"}));
    }
    QVERIFY(runs[0].toObject()["parameters"].toDouble() > runs[1].toObject()["parameters"].toDouble());
    QCOMPARE(json["probe"].toObject()["max_len"].toInt(), 6);
}

void TestCliAnalysis::compareSeedsRepeatEachVariant()
{
    const QString out = m_dir.filePath("compare-seeds");
    const Result r = run({"compare", "--out", out, "--attention", "bahdanau", "--seeds", "2", "--seed", "7",
                          "--words-file", m_dir.filePath("words.txt"), "--min-len", "2", "--max-len", "4", "--train",
                          "300", "--val", "30", "--test", "30", "--embed", "16", "--hidden", "32", "--layers", "1",
                          "--epochs", "1", "--threads", "1", "--probe-max-len", "5", "--probe", "100"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY(r.out.contains("== bahdanau-seed8 (2 of 2) =="));
    for (const char *name : {"bahdanau-seed7.ckpt", "bahdanau-seed8.ckpt"})
        QVERIFY2(QFileInfo::exists(QDir(out).filePath(name)), name);

    QFile file(QDir(out).filePath("comparison.json"));
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QJsonObject json = QJsonDocument::fromJson(file.readAll()).object();
    const QJsonArray runs = json["runs"].toArray();
    QCOMPARE(runs.size(), 2);
    QCOMPARE(runs[0].toObject()["model_seed"].toInt(), 7);
    QCOMPARE(runs[1].toObject()["model_seed"].toInt(), 8);
    const QJsonArray spreads = json["seed_spread"].toArray();
    QCOMPARE(spreads.size(), 1);
    const QJsonObject spread = spreads[0].toObject();
    QCOMPARE(spread["model_seeds"].toArray(), (QJsonArray{7, 8}));
    const QJsonObject test = spread["test_exact_match"].toObject();
    const double a = runs[0].toObject()["test"].toObject()["exact_match"].toDouble();
    const double b = runs[1].toObject()["test"].toObject()["exact_match"].toDouble();
    QCOMPARE(test["mean"].toDouble(), (a + b) / 2);
    QCOMPARE(test["min"].toDouble(), std::min(a, b));
    QCOMPARE(test["max"].toDouble(), std::max(a, b));
    QCOMPARE(spread["probe_by_length"].toObject().keys(), (QStringList{"2", "3", "4", "5"}));
}

// The bundled model on the first sentences of its test split: every figure of every word, and the
// summary, in JSON.
void TestCliAnalysis::explainGivesEveryFigureAsJson()
{
    const CliResult r = runAttnscope({"explain", "--sentences", "4", "--mode", "unknown", "--json"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const QJsonObject json = QJsonDocument::fromJson(r.out.toUtf8()).object();
    QCOMPARE(json["mode"].toString(), QStringLiteral("unknown"));
    const QJsonObject summary = json["summary"].toObject();
    for (const char *key : {"sentences", "words", "correlated_sentences", "mean_spearman", "median_spearman",
                            "mean_log_prob_fall", "changed_outputs", "expected_outputs"})
        QVERIFY2(summary.contains(key), key);
    QCOMPARE(summary["sentences"].toInt(), 4);
    const QJsonArray sentences = json["sentences"].toArray();
    QCOMPARE(sentences.size(), 4);
    int words = 0;
    for (const QJsonValue &value : sentences) {
        const QJsonObject sentence = value.toObject();
        for (const char *key : {"input", "output", "log_prob", "spearman", "words"})
            QVERIFY2(sentence.contains(key), key);
        const QJsonArray perWord = sentence["words"].toArray();
        QCOMPARE(perWord.size(), sentence["input"].toString().split(' ').size());
        for (const QJsonValue &w : perWord)
            for (const char *key : {"word", "attention", "peak_attention", "log_prob_fall", "output_without",
                                    "output_expected", "output_unchanged"})
                QVERIFY2(w.toObject().contains(key), key);
        words += int(perWord.size());
    }
    QCOMPARE(summary["words"].toInt(), words);
}

void TestCliAnalysis::explainOneSentenceWordByWord()
{
    const CliResult r = runAttnscope({"explain", "the cat sat on the mat"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY(r.out.contains("Output: mat the on sat cat the"));
    // One line per word, each dropped word leaving the rest reversed.
    QCOMPARE(r.out.count(QRegularExpression("^(the|cat|sat|on|mat) +[0-9.]+ +[0-9.]+ +-?[0-9.]+  .*\\(as the task asks\\)$",
                                            QRegularExpression::MultilineOption)),
             6);
    QVERIFY(r.out.contains(QRegularExpression("Spearman rho between attention received and log P fall: [+-][01]\\.[0-9]{2}\n")));
}

ATTNSCOPE_TEST(clianalysis, TestCliAnalysis)
#include "tst_clianalysis.moc"
