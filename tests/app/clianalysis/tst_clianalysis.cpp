#include "tests/common/testregistry.h"
#include "tests/common/clirunner.h"

#include <QtTest>

// compare and explain as a user runs them: the files and figures they write, and explain's
// attribution methods and faithfulness report.
class TestCliAnalysis : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void compareWritesEveryVariant();
    void compareSeedsRepeatEachVariant();
    void explainGivesEveryFigureAsJson();
    void explainOneSentenceWordByWord();
    void explainMethodsPrintATablePerMethod();
    void explainMethodsAsJson();
    void explainMethodAsCsv();
    void explainFaithfulnessAsTablesJsonAndCsv();

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

void TestCliAnalysis::explainMethodsPrintATablePerMethod()
{
    const CliResult r = runAttnscope({"explain", "--method", "all", "the cat sat on the mat"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY(r.out.contains("Output: mat the on sat cat the"));
    QVERIFY(r.out.contains("Step scores"));
    for (const char *name : {"(attention)", "(saliency)", "(inputxgrad)", "(ig): 64 steps from the zero baseline",
                             "(occlusion)"})
        QVERIFY2(r.out.contains(name), name);
    QVERIFY(r.out.contains("f(x)-f(x')"));
    // A row per output step in each of the five tables, <EOS> included.
    QCOMPARE(r.out.count(QRegularExpression("^<EOS> ", QRegularExpression::MultilineOption)), 6);
}

void TestCliAnalysis::explainMethodsAsJson()
{
    const CliResult r = runAttnscope(
        {"explain", "--method", "all", "--steps", "16", "--baseline", "padding", "--json", "the cat sat on the mat"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const QJsonObject json = QJsonDocument::fromJson(r.out.toUtf8()).object();
    QCOMPARE(json["output"].toString(), QStringLiteral("mat the on sat cat the"));
    QCOMPARE(json["words"].toArray().size(), 6);
    QCOMPARE(json["outputs"].toArray().size(), 7);
    QCOMPARE(json["options"].toObject()["integration_steps"].toInt(), 16);
    QCOMPARE(json["options"].toObject()["baseline"].toString(), QStringLiteral("padding"));
    const QJsonArray steps = json["steps"].toArray();
    QCOMPARE(steps.size(), 7);
    for (const QJsonValue &step : steps) {
        for (const char *key : {"output", "log_prob", "entropy", "margin", "runner_up"})
            QVERIFY2(step.toObject().contains(key), key);
        QVERIFY(step.toObject()["log_prob"].toDouble() <= 0);
    }
    QStringList names;
    for (const QJsonValue &value : json["methods"].toArray()) {
        const QJsonObject method = value.toObject();
        names << method["method"].toString();
        const QJsonArray rows = method["scores"].toArray();
        QCOMPARE(rows.size(), 7);
        for (const QJsonValue &row : rows)
            QCOMPARE(row.toArray().size(), 6);
    }
    QCOMPARE(names, (QStringList{"attention", "saliency", "inputxgrad", "ig", "occlusion"}));
    QCOMPARE(json["completeness_gap"].toArray().size(), 7);
    QCOMPARE(json["integration_delta"].toArray().size(), 7);

    const CliResult saliency = runAttnscope({"explain", "--method", "saliency", "--json", "the cat sat"});
    QVERIFY2(saliency.exitCode == 0, qPrintable(saliency.err));
    const QJsonObject one = QJsonDocument::fromJson(saliency.out.toUtf8()).object();
    QCOMPARE(one["methods"].toArray().size(), 1);
    QVERIFY(!one.contains("completeness_gap"));
}

void TestCliAnalysis::explainMethodAsCsv()
{
    const CliResult r = runAttnscope({"explain", "--method", "occlusion", "--mode", "unknown", "--csv", "the cat sat"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const QStringList lines = r.out.split('\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.front(), QStringLiteral("method,step,output,position,word,score"));
    QCOMPARE(lines.size(), 1 + 4 * 3);  // (3 words and <EOS>) x 3 words
    QCOMPARE(lines[1].section(',', 0, 4), QStringLiteral("occlusion,1,sat,1,the"));
    QCOMPARE(lines.last().section(',', 0, 4), QStringLiteral("occlusion,4,<EOS>,3,sat"));
    for (const QString &line : lines.mid(1)) {
        bool number = false;
        line.section(',', 5).toDouble(&number);
        QVERIFY2(number, qPrintable(line));
    }
}

void TestCliAnalysis::explainFaithfulnessAsTablesJsonAndCsv()
{
    const CliResult json = runAttnscope({"explain", "--faithfulness", "--sentences", "3", "--steps", "16", "--json"});
    QVERIFY2(json.exitCode == 0, qPrintable(json.err));
    const QJsonObject report = QJsonDocument::fromJson(json.out.toUtf8()).object();
    QCOMPARE(report["sentences"].toInt(), 3);
    QVERIFY(report["steps"].toInt() > 3 * 3);
    const QStringList methods{"attention", "saliency", "inputxgrad", "ig", "occlusion"};
    QCOMPARE(report["methods"].toVariant().toStringList(), methods);
    QCOMPARE(report["fractions"].toArray().size(), 5);
    for (const QString &method : methods) {
        QCOMPARE(report["agreement"].toObject()[method].toObject().size(), 5);
        QCOMPARE(report["agreement"].toObject()[method].toObject()[method].toDouble(), 1.0);
        QVERIFY(report["top_answer_agreement"].toObject().contains(method));
    }
    const QJsonArray curves = report["curves"].toArray();
    QCOMPARE(curves.size(), 6);
    QCOMPARE(curves.last().toObject()["name"].toString(), QStringLiteral("random"));
    for (const QJsonValue &curve : curves) {
        QCOMPARE(curve.toObject()["comprehensiveness"].toArray().size(), 5);
        QCOMPARE(curve.toObject()["sufficiency"].toArray().size(), 5);
    }

    const CliResult csv =
        runAttnscope({"explain", "--faithfulness", "--method", "occlusion", "--sentences", "2", "--csv"});
    QVERIFY2(csv.exitCode == 0, qPrintable(csv.err));
    const QStringList lines = csv.out.split('\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.front(), QStringLiteral("measure,method,against,k,value"));
    QCOMPARE(lines.size(), 1 + 1 + 1 + 2 * 5 * 2);  // agreement, top answer, two curves x five k x two measures
    QVERIFY(lines.contains(QStringLiteral("agreement,occlusion,occlusion,,1")));
    QVERIFY(lines.filter(QRegularExpression("^comprehensiveness,random,,0.5,-?[0-9.e-]+$")).size() == 1);

    const CliResult text = runAttnscope({"explain", "--faithfulness", "--method", "attention", "--sentences", "2"});
    QVERIFY2(text.exitCode == 0, qPrintable(text.err));
    for (const char *part : {"Faithfulness over 2 sentences", "Agreement between methods", "Top-word agreement",
                             "Comprehensiveness", "Sufficiency", "random"})
        QVERIFY2(text.out.contains(part), part);
}

ATTNSCOPE_TEST(clianalysis, TestCliAnalysis)
#include "tst_clianalysis.moc"
