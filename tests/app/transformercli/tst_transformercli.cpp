#include "tests/common/testregistry.h"
#include "tests/common/clirunner.h"
#include "tests/common/tinytransformerrun.h"

#include <QtTest>

#include <QImage>
#include <QJsonArray>

#include <csignal>
#include <cmath>

namespace {

QJsonObject readJsonFile(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.readAll()).object();
}

// Every row of a weights matrix is a distribution over the columns: it sums to 1.
void checkDistributionRows(const QJsonArray &rows, int columns, const char *what)
{
    QVERIFY2(!rows.isEmpty(), what);
    for (const QJsonValue &row : rows) {
        const QJsonArray weights = row.toArray();
        QCOMPARE(weights.size(), columns);
        double sum = 0;
        for (const QJsonValue &w : weights) {
            QVERIFY2(w.toDouble() >= 0, what);
            sum += w.toDouble();
        }
        QVERIFY2(std::abs(sum - 1) < 1e-5, qPrintable(QStringLiteral("%1: a row sums to %2").arg(what).arg(sum)));
    }
}

}  // namespace

// The Transformer's commands as a user runs them (--architecture transformer): train, reverse,
// evaluate and compare, their files and JSON keys (the RNN's where the two mean the same), bad
// options and files that are not Transformer checkpoints.
class TestTransformerCli : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void badOptionsExitWithTwo_data();
    void badOptionsExitWithTwo();
    void trainWritesAllFiles();
    void reverseJsonHoldsEveryLayersAndHeadsWeights();
    void reverseCutsWhatThePositionsDoNotReach();
    void reverseSearchesABeam();
    void evaluateScoresTheTestSplitAndLongerSentences();
    void compareSetsThePositionEncodingsSideBySide();
    void badCheckpointsFailClearly();
    void ctrlCStopsAndKeepsWhatWasTrained();

private:
    static QStringList transformer(const QString &command) { return {command, "--architecture", "transformer"}; }
    QTemporaryDir m_dir;
    QString m_words;
    QString m_model;
};

void TestTransformerCli::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_words = m_dir.filePath("words.txt");
    QFile words(m_words);
    QVERIFY(words.open(QIODevice::WriteOnly));
    words.write("red green blue cat dog sun\n");
}

void TestTransformerCli::badOptionsExitWithTwo_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("message");
    const QString out = QDir::temp().filePath("attnscope-unused");
    QTest::newRow("train without --out") << transformer("train") << "--out DIR is required";
    QTest::newRow("heads not dividing the width")
        << transformer("train") + QStringList{"--out", out, "--heads", "3"} << "multiple of the number of heads";
    QTest::newRow("layers out of range") << transformer("train") + QStringList{"--out", out, "--layers", "9"}
                                         << "--layers expects";
    QTest::newRow("unknown positions") << transformer("train") + QStringList{"--out", out, "--positions", "rotary"}
                                       << "--positions must be";
    QTest::newRow("positions too few for the sentences")
        << transformer("train") + QStringList{"--out", out, "--max-len", "10", "--max-positions", "11"}
        << "--max-positions 11 is too short for sentences of 10 words, which take 12 positions";
    QTest::newRow("an RNN option") << transformer("train") + QStringList{"--out", out, "--hidden", "32"}
                                   << "unknown option --hidden";
    QTest::newRow("reverse without --model") << transformer("reverse") + QStringList{"the cat"}
                                             << "--model FILE is required";
    QTest::newRow("reverse without sentence") << transformer("reverse") + QStringList{"--model", "m.ckpt"}
                                              << "exactly one sentence";
    QTest::newRow("reverse n-best beyond the beam")
        << transformer("reverse") + QStringList{"--model", "m.ckpt", "--beam", "2", "--nbest", "3", "the cat"}
        << "--nbest 3 is more than the beam keeps (--beam 2)";
    QTest::newRow("reverse beam of zero") << transformer("reverse") + QStringList{"--model", "m.ckpt", "--beam", "0", "the cat"}
                                          << "--beam expects";
    QTest::newRow("evaluate without --model") << transformer("evaluate") << "--model FILE is required";
    QTest::newRow("evaluate zero probe") << transformer("evaluate") + QStringList{"--model", "m.ckpt", "--probe", "0"}
                                         << "--probe expects";
    QTest::newRow("evaluate probe and corpus")
        << transformer("evaluate") + QStringList{"--model", "m.ckpt", "--probe", "10", "--corpus", "c.txt"}
        << "give one or the other";
    QTest::newRow("compare without --out") << transformer("compare") << "--out DIR is required";
    QTest::newRow("positions listed twice")
        << transformer("compare") + QStringList{"--out", out, "--positions", "learned,learned"}
        << "--positions lists 'learned' twice";
    QTest::newRow("bad positions in list")
        << transformer("compare") + QStringList{"--out", out, "--positions", "sinusoidal,rotary"}
        << "--positions takes a comma-separated list whose items";
    QTest::newRow("probe shorter than training")
        << transformer("compare") + QStringList{"--out", out, "--max-len", "10", "--probe-max-len", "5"}
        << "is below --max-len";
    QTest::newRow("probe past the positions")
        << transformer("compare") + QStringList{"--out", out, "--max-positions", "20", "--probe-max-len", "30"}
        << "--probe-max-len 30 is past what the positions reach";
    QTest::newRow("compare on a corpus") << transformer("compare") + QStringList{"--out", out, "--corpus", "c.txt"}
                                         << "--corpus is not supported";
}

void TestTransformerCli::badOptionsExitWithTwo()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, message);
    const CliResult r = runAttnscope(arguments);
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(message), qPrintable(r.err));
    QVERIFY(r.out.isEmpty());
    QVERIFY(!QFileInfo::exists(QDir::temp().filePath("attnscope-unused")));
}

void TestTransformerCli::trainWritesAllFiles()
{
    const QString out = m_dir.filePath("run");
    const CliResult r = runAttnscope(transformer("train") + QStringList{"--out", out, "--epochs", "2"} + tinyRun(m_words));
    QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
    QVERIFY2(r.out.contains("Transformer 1 + 1 layers, 2 heads, d_model 8, sinusoidal positions, pre-LN"),
             qPrintable(r.out));
    QVERIFY(r.out.contains("epoch   2 | train loss"));
    QVERIFY(r.out.contains("Test exact match:"));
    QCOMPARE(r.out.count(QRegularExpression("^Input: \".*\"  Output: \".*\"  Reference: \".*\"  (match|no match)$",
                                            QRegularExpression::MultilineOption)),
             10);
    for (const char *name : {"model.ckpt", "metrics.json", "loss_curve.csv", "examples.txt"})
        QVERIFY2(QFileInfo::exists(QDir(out).filePath(name)), name);

    const QJsonObject metrics = readJsonFile(QDir(out).filePath("metrics.json"));
    QCOMPARE(metrics["architecture"].toString(), QStringLiteral("transformer"));
    const QJsonArray epochs = metrics["epochs"].toArray();
    QCOMPARE(epochs.size(), 2);
    for (const char *key : {"epoch", "train_loss", "val_loss", "val_exact_match", "seconds", "samples_per_second",
                            "learning_rate", "gradient_norm"})
        QVERIFY2(epochs[1].toObject().contains(key), key);
    QVERIFY(epochs[1].toObject()["gradient_norm"].toDouble() > 0);
    QVERIFY(metrics["best_epoch"].toInt() >= 1);
    QCOMPARE(metrics["status"].toString(), QStringLiteral("finished"));
    QVERIFY(metrics["peak_rss_mib"].toDouble() > 0);
    const QJsonObject test = metrics["test"].toObject();
    QCOMPARE(test["sentences"].toInt(), 20);
    QVERIFY(test["exact_match"].toDouble() >= 0 && test["exact_match"].toDouble() <= 1);
    QVERIFY(test.contains("token_accuracy"));
    for (const QString &length : test["by_length"].toObject().keys())
        QVERIFY2(QStringList({"2", "3", "4"}).contains(length), qPrintable(length));
    const QJsonObject config = metrics["config"].toObject();
    QCOMPARE(config["model"].toObject()["d_model"].toInt(), 8);
    QCOMPARE(config["model"].toObject()["positions"].toString(), QStringLiteral("sinusoidal"));
    QVERIFY(config["model"].toObject()["parameters"].toDouble() > 0);
    QCOMPARE(config["training"].toObject()["epochs"].toInt(), 2);
    QCOMPARE(config["dataset"].toObject()["vocabulary_size"].toInt(), 4 + 6);
    QCOMPARE(metrics["effective_settings"].toObject()["max_length"].toInt(), 4);

    // One row per batch: 200 sentences in batches of 32 make 7 a epoch.
    QFile curve(QDir(out).filePath("loss_curve.csv"));
    QVERIFY(curve.open(QIODevice::ReadOnly));
    const QStringList rows = QString::fromUtf8(curve.readAll()).split('\n', Qt::SkipEmptyParts);
    QCOMPARE(rows.size(), 1 + 2 * 7);
    QCOMPARE(rows.front(), QStringLiteral("epochs_done,epoch,batch,train_loss,samples_per_second"));
    QVERIFY2(rows.back().startsWith("2.000000,2,7,"), qPrintable(rows.back()));

    QFile examples(QDir(out).filePath("examples.txt"));
    QVERIFY(examples.open(QIODevice::ReadOnly));
    QCOMPARE(QString::fromUtf8(examples.readAll()).count('\n'), 20);
    m_model = QDir(out).filePath("model.ckpt");
}

void TestTransformerCli::reverseJsonHoldsEveryLayersAndHeadsWeights()
{
    QVERIFY(!m_model.isEmpty());
    const CliResult plain = runAttnscope(transformer("reverse") + QStringList{"--model", m_model, "red cat"});
    QVERIFY2(plain.exitCode == 0, qPrintable(plain.err));
    QCOMPARE(plain.out.count('\n'), 1);

    const CliResult r = runAttnscope(transformer("reverse") + QStringList{"--model", m_model, "--json", "red zebra cat"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const QJsonObject json = QJsonDocument::fromJson(r.out.toUtf8()).object();
    // The RNN's keys.
    for (const char *key : {"output", "source_tokens", "source_known", "output_tokens", "output_copied", "attention",
                            "unk_replacement", "unk_replacement_used", "input_truncated"})
        QVERIFY2(json.contains(key), key);
    QCOMPARE(json["source_tokens"].toArray().size(), 4);
    QCOMPARE(json["source_tokens"].toArray()[1].toString(), QStringLiteral("<UNK>"));
    QCOMPARE(json["source_known"].toArray()[1].toBool(), false);
    QCOMPARE(json["source_known"].toArray()[2].toBool(), true);
    QCOMPARE(json["input_truncated"].toBool(), false);
    const int outputs = json["output_tokens"].toArray().size();
    QVERIFY(outputs >= 1 && outputs <= 3 + 2);
    QCOMPARE(json["attention"].toArray().size(), outputs);
    checkDistributionRows(json["attention"].toArray(), 4, "attention");
    QCOMPARE(json["decoder_input_tokens"].toArray().size(), outputs);
    QCOMPARE(json["decoder_input_tokens"].toArray()[0].toString(), QStringLiteral("<SOS>"));

    // Every layer's and head's weights: 1 layer of 2 heads, each row a distribution.
    QCOMPARE(json["layers"].toInt(), 1);
    QCOMPARE(json["heads"].toInt(), 2);
    const struct {
        const char *key;
        int rows;
        int columns;
    } attentions[] = {{"encoder_self_attention", 4, 4}, {"decoder_self_attention", outputs, outputs},
                      {"cross_attention", outputs, 4}};
    for (const auto &attention : attentions) {
        const QJsonArray layers = json[attention.key].toArray();
        QCOMPARE(layers.size(), 1);
        const QJsonArray heads = layers[0].toArray();
        QCOMPARE(heads.size(), 2);
        for (const QJsonValue &head : heads) {
            QCOMPARE(head.toArray().size(), attention.rows);
            checkDistributionRows(head.toArray(), attention.columns, attention.key);
        }
    }
    // The decoder's self-attention never looks ahead.
    const QJsonArray selfRows = json["decoder_self_attention"].toArray()[0].toArray()[0].toArray();
    for (int row = 0; row < outputs; ++row)
        for (int column = row + 1; column < outputs; ++column)
            QCOMPARE(selfRows[row].toArray()[column].toDouble(), 0.0);
    // "attention" is the mean of the last layer's cross-attention heads.
    const QJsonArray cross = json["cross_attention"].toArray()[0].toArray();
    const double mean = (cross[0].toArray()[0].toArray()[1].toDouble() + cross[1].toArray()[0].toArray()[1].toDouble()) / 2;
    QVERIFY(std::abs(json["attention"].toArray()[0].toArray()[1].toDouble() - mean) < 1e-6);
}

void TestTransformerCli::reverseSearchesABeam()
{
    QVERIFY(!m_model.isEmpty());
    const CliResult greedy = runAttnscope(transformer("reverse") + QStringList{"--model", m_model, "--json", "red cat"});
    QVERIFY2(greedy.exitCode == 0, qPrintable(greedy.err));
    const QJsonObject greedyJson = QJsonDocument::fromJson(greedy.out.toUtf8()).object();
    // A beam of one is greedy decoding, and says which hypotheses it kept.
    const CliResult one = runAttnscope(transformer("reverse") + QStringList{"--model", m_model, "--json", "--beam", "1",
                                                                            "--nbest", "1", "red cat"});
    QVERIFY2(one.exitCode == 0, qPrintable(one.err));
    QCOMPARE(QJsonDocument::fromJson(one.out.toUtf8()).object()["output_tokens"], greedyJson["output_tokens"]);

    const CliResult r = runAttnscope(transformer("reverse") + QStringList{"--model", m_model, "--json", "--beam", "3",
                                                                          "--nbest", "3", "red cat"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const QJsonObject json = QJsonDocument::fromJson(r.out.toUtf8()).object();
    QCOMPARE(json["beam"].toObject()["width"].toInt(), 3);
    const QJsonArray nbest = json["nbest"].toArray();
    QCOMPARE(nbest.size(), 3);
    for (int i = 1; i < nbest.size(); ++i)
        QVERIFY(nbest[i - 1].toObject()["score"].toDouble() >= nbest[i].toObject()["score"].toDouble());
    // The top line is the best hypothesis, with its attention.
    QCOMPARE(json["output_tokens"], nbest[0].toObject()["tokens"]);
    QCOMPARE(json["cross_attention"].toArray()[0].toArray()[0].toArray().size(), json["output_tokens"].toArray().size());
    const QJsonArray steps = json["beam_steps"].toArray();
    QVERIFY(!steps.isEmpty());
    QVERIFY(steps[0].toObject()["kept"].toArray().size() <= 3);

    const CliResult text = runAttnscope(transformer("reverse") + QStringList{"--model", m_model, "--beam", "3",
                                                                             "--nbest", "2", "red cat"});
    QVERIFY2(text.exitCode == 0, qPrintable(text.err));
    QVERIFY2(text.out.contains(QStringLiteral("n-best (beam 3, alpha 0.6")), qPrintable(text.out));
    QCOMPARE(text.out.count(QStringLiteral(". score ")), 2);
}

void TestTransformerCli::reverseCutsWhatThePositionsDoNotReach()
{
    QVERIFY(!m_model.isEmpty());
    const CliResult r =
        runAttnscope(transformer("reverse") + QStringList{"--model", m_model, "--json", QStringLiteral("red cat ").repeated(150)});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY2(r.err.contains("cut to its first 254 tokens (the model's positions reach 256)"), qPrintable(r.err));
    const QJsonObject json = QJsonDocument::fromJson(r.out.toUtf8()).object();
    QCOMPARE(json["input_truncated"].toBool(), true);
    QCOMPARE(json["source_tokens"].toArray().size(), 254 + 1);
}

void TestTransformerCli::evaluateScoresTheTestSplitAndLongerSentences()
{
    QVERIFY(!m_model.isEmpty());
    CliResult r = runAttnscope(transformer("evaluate") + QStringList{"--model", m_model, "--examples", "3"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY(r.out.contains("Test exact match:") && r.out.contains("(20 sentences, greedy, in padded batches)"));
    QCOMPARE(r.out.count(QRegularExpression("^Input: ", QRegularExpression::MultilineOption)), 3);

    r = runAttnscope(transformer("evaluate") +
                     QStringList{"--model", m_model, "--probe-max-len", "12", "--probe", "300", "--json"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QJsonObject json = QJsonDocument::fromJson(r.out.toUtf8()).object();
    QCOMPARE(json["test"].toObject()["sentences"].toInt(), 20);
    const QJsonObject probe = json["probe"].toObject();
    QCOMPARE(probe["sentences"].toInt(), 300);
    QCOMPARE(probe["max_len"].toInt(), 12);
    QCOMPARE(probe["trained_max_len"].toInt(), 4);
    int probed = 0;
    for (const QString &length : probe["by_length"].toObject().keys()) {
        QVERIFY2(length.toInt() >= 2 && length.toInt() <= 12, qPrintable(length));
        probed += probe["by_length"].toObject()[length].toObject()["total"].toInt();
    }
    QCOMPARE(probed, 300);
    QVERIFY(probe["by_length"].toObject().contains("12"));

    // --probe alone goes to three times the longest trained sentence.
    r = runAttnscope(transformer("evaluate") + QStringList{"--model", m_model, "--probe", "50", "--examples", "0"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY2(r.out.contains("Probe: 50 generated sentences of 2-12 words (trained on 2-4; * = beyond)"), qPrintable(r.out));
    QVERIFY2(r.out.contains(QRegularExpression("By length:  2: \\d+\\.\\d\\d%  3: .*  5\\*: .*  12\\*: ")), qPrintable(r.out));
}

void TestTransformerCli::compareSetsThePositionEncodingsSideBySide()
{
    const QString out = m_dir.filePath("compare");
    const CliResult r = runAttnscope(transformer("compare") +
                                     QStringList{"--out", out, "--epochs", "1", "--probe", "60", "--max-positions", "8"} +
                                     tinyRun(m_words));
    QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
    QVERIFY2(r.out.contains("== sinusoidal (1 of 2) ==") && r.out.contains("== learned (2 of 2) =="), qPrintable(r.out));
    QVERIFY(r.out.contains("Probe exact match by length (trained on 2-4 words; * = beyond):"));
    QVERIFY(r.out.contains("Learned positions are trained only up to the longest training sentence (4 words)"));
    QCOMPARE(QImage(QDir(out).filePath("comparison.png")).size(), QSize(1000, 600));
    for (const char *name : {"comparison.json", "comparison.png", "sinusoidal.ckpt", "learned.ckpt"})
        QVERIFY2(QFileInfo::exists(QDir(out).filePath(name)), name);

    const QJsonObject json = readJsonFile(QDir(out).filePath("comparison.json"));
    QCOMPARE(json["architecture"].toString(), QStringLiteral("transformer"));
    // --max-positions 8 reaches 6 words: the default probe stops there, short of 3 x 4.
    QCOMPARE(json["probe"].toObject()["max_len"].toInt(), 6);
    const QJsonArray runs = json["runs"].toArray();
    QCOMPARE(runs.size(), 2);
    QCOMPARE(runs[0].toObject()["positions"].toString(), QStringLiteral("sinusoidal"));
    QCOMPARE(runs[1].toObject()["positions"].toString(), QStringLiteral("learned"));
    // Learned positions add 8 x 8 weights.
    QCOMPARE(runs[1].toObject()["parameters"].toDouble() - runs[0].toObject()["parameters"].toDouble(), 64.0);
    for (const QJsonValue &value : runs) {
        const QJsonObject run = value.toObject();
        // The RNN compare's keys, then the bench's.
        for (const char *key : {"label", "model", "model_seed", "parameters", "epochs", "best_epoch", "status",
                                "seconds", "test", "probe", "by_length", "history", "train_samples_per_s", "time_to_acc"})
            QVERIFY2(run.contains(key), key);
        QCOMPARE(run["model_seed"].toInt(), 42);
        QCOMPARE(run["test"].toObject()["sentences"].toInt(), 20);
        QCOMPARE(run["probe"].toObject()["sentences"].toInt(), 60);
        QVERIFY(run["train_samples_per_s"].toObject()["median"].toDouble() > 0);
        const QJsonObject reached = run["time_to_acc"].toObject();
        QCOMPARE(reached["target"].toDouble(), 0.99);
        QCOMPARE(reached["test_exact_by_epoch"].toArray().size(), 1);
        QCOMPARE(reached["reached"].toBool(), !reached["wall_s"].isNull());
        for (const QString &length : run["by_length"].toObject().keys())
            QVERIFY2(length.toInt() >= 2 && length.toInt() <= 6, qPrintable(length));
    }

    // What the positions do not reach is refused for the learned model too, with the limit named.
    const CliResult beyond = runAttnscope(transformer("evaluate") +
                                          QStringList{"--model", QDir(out).filePath("learned.ckpt"), "--probe-max-len", "7"});
    QCOMPARE(beyond.exitCode, 2);
    QVERIFY2(beyond.err.contains("--probe-max-len 7 is past what this model reaches: 6 words (its --max-positions 8 less 2)"),
             qPrintable(beyond.err));
}

void TestTransformerCli::badCheckpointsFailClearly()
{
    QVERIFY(!m_model.isEmpty());
    QFile junk(m_dir.filePath("junk.ckpt"));
    QVERIFY(junk.open(QIODevice::WriteOnly));
    junk.write("this is not a model");
    junk.close();
    QFile model(m_model);
    QVERIFY(model.open(QIODevice::ReadOnly));
    QFile cut(m_dir.filePath("cut.ckpt"));
    QVERIFY(cut.open(QIODevice::WriteOnly));
    cut.write(model.read(model.size() / 2));
    cut.close();
    const QString rnnModel = QStringLiteral(ATTNSCOPE_SOURCE_DIR "/resources/models/default.ckpt");
    QVERIFY(QFileInfo::exists(rnnModel));
    const QString rnnProject = m_dir.filePath("rnn/project.attnscope");
    const CliResult rnn = runAttnscope({"train", "--out", m_dir.filePath("rnn"), "--words-file", m_words, "--min-len",
                                        "2", "--max-len", "3", "--train", "60", "--val", "10", "--test", "10",
                                        "--embed", "8", "--hidden", "8", "--layers", "1", "--epochs", "1", "--threads",
                                        "1"});
    QVERIFY2(rnn.exitCode == 0 && QFileInfo::exists(rnnProject), qPrintable(rnn.err));

    // A character model's signature is enough for its lab to claim the file.
    QFile charModel(m_dir.filePath("char.ckpt"));
    QVERIFY(charModel.open(QIODevice::WriteOnly));
    charModel.write("ATNSCHAR and then anything");
    charModel.close();
    const QString rnnFile = QStringLiteral("not a Transformer checkpoint; use --architecture rnn");
    const std::pair<QString, QString> files[] = {
        {m_dir.filePath("absent.ckpt"), "cannot open"},
        {m_dir.path(), "is not a regular file"},
        {junk.fileName(), "not a Transformer checkpoint (the file does not start with its signature)"},
        {cut.fileName(), "is truncated"},
        {rnnModel, "it is a file of the Attention lab (AttnScope attention model), " + rnnFile},
        {rnnProject, "it is a file of the Attention lab (AttnScope project), " + rnnFile},
        {charModel.fileName(), "it is a file of the Character Model lab (AttnScope character model), not a "
                               "Transformer checkpoint\n"},
    };
    for (const auto &[file, message] : files)
        for (const QStringList &command : {transformer("reverse") + QStringList{"--model", file, "the cat"},
                                           transformer("evaluate") + QStringList{"--model", file},
                                           transformer("explain") + QStringList{"--model", file, "the cat"}}) {
            const CliResult r = runAttnscope(command);
            QCOMPARE(r.exitCode, 1);
            QVERIFY2(r.err.contains(message), qPrintable(r.err));
            QVERIFY(r.out.isEmpty());
        }
    // The other way round: the RNN's commands name the lab whose file type claims it, and the
    // architecture to ask for.
    CliResult r = runAttnscope({"reverse", "--model", m_model, "the cat"});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains("it is a file of the Transformer lab (AttnScope Transformer model), not an attention "
                            "model checkpoint; use --architecture transformer"),
             qPrintable(r.err));
    r = runAttnscope({"reverse", "--model", charModel.fileName(), "the cat"});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains("it is a file of the Character Model lab (AttnScope character model), not an attention "
                            "model checkpoint\n"),
             qPrintable(r.err));
}

// Ctrl+C stops after the batch it falls in and writes what was trained, as the RNN's train does.
void TestTransformerCli::ctrlCStopsAndKeepsWhatWasTrained()
{
    const QString out = m_dir.filePath("stopped");
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("DISPLAY"));
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(ATTNSCOPE_BINARY),
            transformer("train") + QStringList{"--out", out, "--epochs", "1000"} + tinyRun(m_words));
    QVERIFY(p.waitForStarted());
    QByteArray printed;
    while (!printed.contains("epoch   1 |") && p.state() == QProcess::Running && p.waitForReadyRead(120000))
        printed += p.readAllStandardOutput();
    QVERIFY2(printed.contains("epoch   1 |"), printed.constData());
    QCOMPARE(::kill(pid_t(p.processId()), SIGINT), 0);
    QVERIFY(p.waitForFinished(120000));
    printed += p.readAllStandardOutput();
    QCOMPARE(p.exitStatus(), QProcess::NormalExit);
    QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
    QVERIFY2(printed.contains("Stopped during epoch"), printed.constData());
    const QJsonObject metrics = readJsonFile(QDir(out).filePath("metrics.json"));
    QCOMPARE(metrics["status"].toString(), QStringLiteral("stopped"));
    QVERIFY(metrics["epochs"].toArray().size() < 1000);
    QVERIFY(QFileInfo::exists(QDir(out).filePath("model.ckpt")));
}

ATTNSCOPE_TEST(transformercli, TestTransformerCli)
#include "tst_transformercli.moc"
