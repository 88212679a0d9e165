#include "tests/common/testregistry.h"
#include "tests/common/clirunner.h"
#include "tests/common/tinytransformerrun.h"

#include <QtTest>

#include <QJsonArray>

// attnscope explain --architecture transformer as a user runs it: its bad usage, each method's map
// of a tiny trained model's sentence as JSON, CSV and text, and --faithfulness over its test split.
// (Damaged checkpoints are refused with the other Transformer commands', in transformercli;
// --faithfulness reads one too.)
class TestTransformerExplainCli : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void badUsageExitsWithTwo_data();
    void badUsageExitsWithTwo();
    void explainGivesEveryMethodsMap();
    void faithfulnessJsonHasEveryMethodAndCurve();
    void faithfulnessCsvHasARowPerFigure();
    void faithfulnessRefusesADamagedModel();

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
    QTest::newRow("faithfulness with a sentence")
        << explain() + QStringList{"--model", "m.ckpt", "--faithfulness", "the cat"}
        << "--faithfulness measures the model's test split; it does not go with a sentence";
    QTest::newRow("faithfulness without --model") << explain() + QStringList{"--faithfulness"}
                                                  << "--model FILE is required";
    QTest::newRow("sentences without faithfulness")
        << explain() + QStringList{"--model", "m.ckpt", "--sentences", "5", "the cat"} << "--sentences goes with --faithfulness";
    QTest::newRow("faithfulness zero sentences")
        << explain() + QStringList{"--model", "m.ckpt", "--faithfulness", "--sentences", "0"}
        << "--sentences expects a whole number from 1 to";
    QTest::newRow("faithfulness json and csv")
        << explain() + QStringList{"--model", "m.ckpt", "--faithfulness", "--json", "--csv"} << "not both";
    QTest::newRow("faithfulness bad method")
        << explain() + QStringList{"--model", "m.ckpt", "--faithfulness", "--method", "lime"} << "--method must be";
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

// The RNN's keys: every method asked (rollout among them), agreement method x method with 1 on
// the diagonal, a share per method, and a curve per method then "random", a figure per fraction.
void TestTransformerExplainCli::faithfulnessJsonHasEveryMethodAndCurve()
{
    QVERIFY(!m_model.isEmpty());
    const CliResult r = runAttnscope(
        explain() + QStringList{"--model", m_model, "--faithfulness", "--sentences", "6", "--steps", "4", "--json"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const QJsonObject root = QJsonDocument::fromJson(r.out.toUtf8()).object();
    QCOMPARE(root["sentences"].toInt(), 6);
    QVERIFY(root["steps"].toInt() >= 6);  // at least one output step per sentence
    QVERIFY(root["answered_steps"].toInt() <= root["steps"].toInt());
    QCOMPARE(root["options"].toObject()["integration_steps"].toInt(), 4);
    const QStringList methods{"attention", "saliency", "inputxgrad", "ig", "occlusion", "rollout"};
    QCOMPARE(root["methods"].toVariant().toStringList(), methods);
    QCOMPARE(root["fractions"].toArray().size(), 5);
    const QJsonObject agreement = root["agreement"].toObject();
    for (const QString &a : methods) {
        const QJsonObject row = agreement[a].toObject();
        QCOMPARE(row.size(), methods.size());
        QCOMPARE(row[a].toDouble(), 1.0);
        for (const QString &b : methods)
            QCOMPARE(row[b].toDouble(), agreement[b].toObject()[a].toDouble());
        const double share = root["top_answer_agreement"].toObject()[a].toDouble(-1);
        QVERIFY(share >= 0 && share <= 1);
    }
    const QJsonArray curves = root["curves"].toArray();
    QCOMPARE(curves.size(), methods.size() + 1);
    QCOMPARE(curves.last().toObject()["name"].toString(), QStringLiteral("random"));
    for (const QJsonValue &curve : curves) {
        QCOMPARE(curve.toObject()["comprehensiveness"].toArray().size(), 5);
        QCOMPARE(curve.toObject()["sufficiency"].toArray().size(), 5);
    }
}

// measure,method,against,k,value: methods^2 agreements, a share per method and per curve two
// figures per fraction; text names the measures.
void TestTransformerExplainCli::faithfulnessCsvHasARowPerFigure()
{
    QVERIFY(!m_model.isEmpty());
    const QStringList options{"--model", m_model, "--faithfulness", "--sentences", "4", "--method", "rollout"};
    const CliResult csv = runAttnscope(explain() + options + QStringList{"--csv"});
    QVERIFY2(csv.exitCode == 0, qPrintable(csv.err));
    const QStringList lines = csv.out.trimmed().split('\n');
    QCOMPARE(lines.first(), QStringLiteral("measure,method,against,k,value"));
    QCOMPARE(lines.size(), 1 + 1 + 1 + 2 * 5 * 2);
    QCOMPARE(lines[1], QStringLiteral("agreement,rollout,rollout,,1"));
    QVERIFY(lines[2].startsWith(QStringLiteral("top_answer_agreement,rollout,,,")));
    QVERIFY(lines[3].startsWith(QStringLiteral("comprehensiveness,rollout,,0.1,")));
    QVERIFY(lines.last().startsWith(QStringLiteral("sufficiency,random,,0.5,")));
    const CliResult text = runAttnscope(explain() + options);
    QVERIFY2(text.exitCode == 0, qPrintable(text.err));
    QVERIFY(text.out.contains(QStringLiteral("Faithfulness over 4 sentences of the model's test split")));
    QVERIFY(text.out.contains(QStringLiteral("Comprehensiveness")));
}

void TestTransformerExplainCli::faithfulnessRefusesADamagedModel()
{
    QVERIFY(!m_model.isEmpty());
    QFile model(m_model);
    QVERIFY(model.open(QIODevice::ReadOnly));
    QByteArray bytes = model.readAll();
    bytes[bytes.size() / 2] = char(bytes[bytes.size() / 2] ^ 0x5a);
    QFile damaged(m_dir.filePath("damaged.ckpt"));
    QVERIFY(damaged.open(QIODevice::WriteOnly));
    damaged.write(bytes);
    damaged.close();
    const CliResult r = runAttnscope(explain() + QStringList{"--model", damaged.fileName(), "--faithfulness"});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains(QStringLiteral("damaged")), qPrintable(r.err));
    QVERIFY(r.out.isEmpty());
}

ATTNSCOPE_TEST(transformerexplaincli, TestTransformerExplainCli)
#include "tst_transformerexplaincli.moc"
