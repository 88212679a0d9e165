#include "tests/common/testregistry.h"
#include "tests/common/clirunner.h"
#include "tests/common/tinytransformerrun.h"

#include <QtTest>

#include <QJsonArray>

// attnscope explain --architecture transformer as a user runs it: its bad usage, and each method's
// map of a tiny trained model's sentence as JSON, CSV and text. (Damaged checkpoints are refused
// with the other Transformer commands', in transformercli.)
class TestTransformerExplainCli : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void badUsageExitsWithTwo_data();
    void badUsageExitsWithTwo();
    void explainGivesEveryMethodsMap();

private:
    static QStringList explain() { return {"explain", "--architecture", "transformer"}; }
    QTemporaryDir m_dir;
    QString m_model;
};

void TestTransformerExplainCli::initTestCase()
{
    QVERIFY(m_dir.isValid());
    const QString words = m_dir.filePath("words.txt");
    QFile file(words);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("red green blue cat dog sun\n");
    file.close();
    const QString out = m_dir.filePath("run");
    const CliResult r = runAttnscope(QStringList{"train", "--architecture", "transformer", "--out", out, "--epochs", "2"} +
                                     tinyRun(words));
    QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
    m_model = QDir(out).filePath("model.ckpt");
}

void TestTransformerExplainCli::badUsageExitsWithTwo_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("message");
    QTest::newRow("explain without --model") << explain() + QStringList{"the cat"} << "--model FILE is required";
    QTest::newRow("explain one word") << explain() + QStringList{"--model", "m.ckpt", "cat"}
                                      << "the sentence needs at least two words";
    QTest::newRow("explain an unknown method")
        << explain() + QStringList{"--model", "m.ckpt", "--method", "gradcam", "the cat"}
        << "--method must be attention, saliency, inputxgrad, ig, occlusion, rollout or all, got 'gradcam'";
    QTest::newRow("explain faithfulness") << explain() + QStringList{"--model", "m.ckpt", "--faithfulness"}
                                          << "--faithfulness measures RNN models";
    QTest::newRow("explain json and csv")
        << explain() + QStringList{"--model", "m.ckpt", "--json", "--csv", "the cat"} << "not both";
    QTest::newRow("explain steps without ig")
        << explain() + QStringList{"--model", "m.ckpt", "--method", "rollout", "--steps", "8", "the cat"}
        << "--steps sets integrated gradients";
}

void TestTransformerExplainCli::badUsageExitsWithTwo()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, message);
    const CliResult r = runAttnscope(arguments);
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(message), qPrintable(r.err));
    QVERIFY(r.out.isEmpty());
}

// Six maps of output step x source word, in the order of the methods, with the RNN's keys; CSV has
// a row per method, step and word.
void TestTransformerExplainCli::explainGivesEveryMethodsMap()
{
    QVERIFY(!m_model.isEmpty());
    const CliResult r = runAttnscope(explain() + QStringList{"--model", m_model, "--json", "red cat sun"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const QJsonObject root = QJsonDocument::fromJson(r.out.toUtf8()).object();
    QCOMPARE(root["input"].toString(), QStringLiteral("red cat sun"));
    const int words = root["words"].toArray().size(), steps = root["outputs"].toArray().size();
    QCOMPARE(words, 3);
    QCOMPARE(root["steps"].toArray().size(), steps);
    QStringList names;
    for (const QJsonValue &method : root["methods"].toArray()) {
        const QJsonObject m = method.toObject();
        names << m["method"].toString();
        const QJsonArray rows = m["scores"].toArray();
        QCOMPARE(rows.size(), steps);
        for (const QJsonValue &row : rows) {
            QCOMPARE(row.toArray().size(), words);
            double sum = 0;
            for (const QJsonValue &score : row.toArray()) {
                QVERIFY(score.isDouble());
                sum += score.toDouble();
            }
            // Both attentions spread a step's weight over the words and <EOS>, which is no column.
            if (names.last() == "attention" || names.last() == "rollout")
                QVERIFY(sum <= 1 + 1e-6);
        }
    }
    QCOMPARE(names, QStringList({"attention", "saliency", "inputxgrad", "ig", "occlusion", "rollout"}));
    QCOMPARE(root["completeness_gap"].toArray().size(), steps);

    const CliResult csv =
        runAttnscope(explain() + QStringList{"--model", m_model, "--method", "rollout", "--csv", "red cat sun"});
    QVERIFY2(csv.exitCode == 0, qPrintable(csv.err));
    const QStringList lines = csv.out.trimmed().split('\n');
    QCOMPARE(lines.first(), QStringLiteral("method,step,output,position,word,score"));
    QCOMPARE(lines.size(), 1 + steps * words);
    QVERIFY(lines[1].startsWith(QStringLiteral("rollout,1,")));
    const CliResult table = runAttnscope(explain() + QStringList{"--model", m_model, "red cat sun"});
    QVERIFY2(table.exitCode == 0, qPrintable(table.err));
    QVERIFY(table.out.contains(QStringLiteral("Attention rollout (rollout)")));
}

ATTNSCOPE_TEST(transformerexplaincli, TestTransformerExplainCli)
#include "tst_transformerexplaincli.moc"
