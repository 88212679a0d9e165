#include "tests/common/testregistry.h"
#include "app/charlm/charlmoptions.h"
#include "engine/charlm/builtintexts.h"
#include "engine/charlm/charcheckpoint.h"
#include "engine/charlm/charlmconfig.h"
#include "tests/common/clirunner.h"
#include "tests/common/configtablechecks.h"

#include <QtTest>

#include <cmath>
#include <set>

// `attnscope charlm`, `attnscope charlm explain` and `attnscope generate` as a user runs them: the
// files and what they hold, the samples, the latency figures, the explained next character, --help,
// and the exit code and message of each bad input, with nothing left behind.
class TestCharLmCli : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void trainWritesEveryFile();
    void shortTextTrainsWithoutValidation();
    void generateStartsWithThePrime();
    void generateJsonHasEntropyPerCharacter();
    void latencyPrintsFigures();
    void explainPrintsTheScores();
    void helpListsEveryOption();
    void generateTableIsSound();
    void badInputIsRefused_data();
    void badInputIsRefused();

private:
    QString write(const QString &name, const QByteArray &contents);
    static QJsonObject readJson(const QString &path);
    static QString readText(const QString &path);
    QTemporaryDir m_dir;
    QByteArray m_text;  // ASCII: its bytes are its characters
    QString m_textFile;
    QString m_model;
};

// A small model that trains in a second or two.
static const QStringList kSmallModel{"--cell", "gru", "--hidden", "24", "--layers", "2", "--embed", "8", "--seq-len",
                                     "16", "--batch", "4", "--threads", "1", "--seed", "5"};

QString TestCharLmCli::write(const QString &name, const QByteArray &contents)
{
    QFile file(m_dir.filePath(name));
    if (!file.open(QIODevice::WriteOnly) || file.write(contents) != contents.size())
        qFatal("cannot write %s", qPrintable(file.fileName()));
    return file.fileName();
}

QJsonObject TestCharLmCli::readJson(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.readAll()).object();
}

QString TestCharLmCli::readText(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

void TestCharLmCli::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_text = QByteArray::fromStdString(builtInLongText().substr(0, 3000));
    m_textFile = write("text.txt", m_text);
}

void TestCharLmCli::trainWritesEveryFile()
{
    const QString out = m_dir.filePath("run");
    const CliResult r = runAttnscope(QStringList{"charlm", "--text", m_textFile, "--out", out, "--epochs", "2",
                                                 "--val", "0.1"} + kSmallModel);
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY2(r.out.contains("3,000 characters"), qPrintable(r.out));
    QVERIFY2(r.out.contains("n-gram baseline"), qPrintable(r.out));
    QVERIFY2(r.out.contains("epoch   1/2 |") && r.out.contains("epoch   2/2 |"), qPrintable(r.out));
    QVERIFY2(!r.out.contains("No validation"), qPrintable(r.out));

    const std::set<char> distinct(m_text.begin(), m_text.end());
    const QJsonObject metrics = readJson(QDir(out).filePath("metrics.json"));
    QCOMPARE(metrics["model_config"].toObject()["hidden"].toInt(), 24);
    QCOMPARE(metrics["model_config"].toObject()["cell"].toString(), QStringLiteral("gru"));
    QCOMPARE(metrics["training_config"].toObject()["seq_len"].toInt(), 16);
    QCOMPARE(metrics["text"].toObject()["characters"].toInt(), m_text.size());
    QCOMPARE(metrics["text"].toObject()["alphabet"].toInt(), int(distinct.size()));
    QCOMPARE(metrics["text"].toObject()["validation_characters"].toInt(), 300);
    const QJsonArray epochs = metrics["epochs"].toArray();
    QCOMPARE(epochs.size(), 2);
    for (int i = 0; i < epochs.size(); ++i) {
        const QJsonObject e = epochs[i].toObject();
        QCOMPARE(e["epoch"].toInt(), i + 1);
        for (const char *kind : {"train", "validation"}) {
            const double bits = e[QString(kind) + "_bits_per_char"].toDouble(-1);
            QVERIFY2(bits > 0 && bits < std::log2(double(distinct.size())) + 1, kind);
            QVERIFY(qFuzzyCompare(e[QString(kind) + "_perplexity"].toDouble(), std::exp2(bits)));
        }
        QVERIFY(e["seconds"].toDouble() > 0);
        QVERIFY(e["chars_per_s"].toDouble() > 0);
        QVERIFY(e["memorised_length"].toInt(-1) >= 0);
    }
    const QJsonObject baseline = metrics["ngram_baseline"].toObject();
    QCOMPARE(baseline["measured_on"].toString(), QStringLiteral("validation"));
    const QJsonArray orders = baseline["orders"].toArray();
    QCOMPARE(orders.size(), 5);
    double best = INFINITY;
    for (const QJsonValue &order : orders)
        best = std::min(best, order.toObject()["bits_per_char"].toDouble());
    QCOMPARE(baseline["best_bits_per_char"].toDouble(), best);
    QCOMPARE(orders[baseline["best_order"].toInt() - 1].toObject()["bits_per_char"].toDouble(), best);
    QVERIFY(metrics["chars_per_s"].toDouble() > 0);
    QVERIFY(metrics["peak_rss_mib"].toDouble() > 0);

    // Three samples, each headed by its temperature and primed with the text's first characters.
    const QStringList samples = readText(QDir(out).filePath("samples.txt")).split("== temperature ", Qt::SkipEmptyParts);
    QCOMPARE(samples.size(), 3);
    const QStringList temperatures{"0.5", "0.8", "1.0"};
    for (int i = 0; i < 3; ++i) {
        QVERIFY2(samples[i].startsWith(temperatures[i] + " ==\n" + QString::fromLatin1(m_text.left(kPrimeCharacters))),
                 qPrintable(samples[i]));
        QVERIFY(samples[i].size() > kSampleCharacters);
    }

    const CharCheckpoint checkpoint = loadCharCheckpoint(QDir(out).filePath("model.ckpt").toStdString());
    QCOMPARE(checkpoint.weights.config.hidden, 24);
    QCOMPARE(checkpoint.weights.config.layers, 2);
    QCOMPARE(checkpoint.weights.alphabetSize(), int(distinct.size()));
    QCOMPARE(checkpoint.training.seqLen, 16);
    QCOMPARE(int(checkpoint.history.size()), 2);
    QCOMPARE(checkpoint.history.back().trainBitsPerChar, epochs[1].toObject()["train_bits_per_char"].toDouble());
    m_model = QDir(out).filePath("model.ckpt");
}

void TestCharLmCli::shortTextTrainsWithoutValidation()
{
    const QString pangram = write("pangram.txt", QByteArray::fromStdString(builtInShortText()));
    const QString out = m_dir.filePath("pangram");
    const CliResult r = runAttnscope({"charlm", "--text", pangram, "--out", out, "--cell", "lstm", "--hidden", "16",
                                      "--embed", "0", "--epochs", "3", "--threads", "1", "--prime", "dog"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY2(r.out.contains("No validation"), qPrintable(r.out));
    QVERIFY2(r.out.contains("val -"), qPrintable(r.out));
    const QJsonObject metrics = readJson(QDir(out).filePath("metrics.json"));
    QVERIFY(!metrics["text"].toObject()["validation_note"].toString().isEmpty());
    QCOMPARE(metrics["ngram_baseline"].toObject()["measured_on"].toString(), QStringLiteral("training"));
    for (const QJsonValue &e : metrics["epochs"].toArray())
        QVERIFY(e.toObject()["validation_bits_per_char"].isNull());
    const QStringList samples = readText(QDir(out).filePath("samples.txt")).split("== temperature ", Qt::SkipEmptyParts);
    QCOMPARE(samples.size(), 3);
    for (const QString &sample : samples)
        QVERIFY2(sample.section('\n', 1).startsWith("dog"), qPrintable(sample));
}

void TestCharLmCli::generateStartsWithThePrime()
{
    QVERIFY(!m_model.isEmpty());
    const QStringList arguments{"generate", "--model", m_model, "--prime", "All:", "--length", "80", "--seed", "3"};
    const CliResult a = runAttnscope(arguments);
    QVERIFY2(a.exitCode == 0, qPrintable(a.err));
    QVERIFY2(a.out.startsWith("All:"), qPrintable(a.out));
    QCOMPARE(a.out.size(), 4 + 80 + 1);  // the prime, the sample, a line end; all ASCII, as the text
    const CliResult b = runAttnscope(arguments);
    QCOMPARE(b.out, a.out);

    const CliResult greedy = runAttnscope({"generate", "--model", m_model, "--temperature", "0", "--length", "40"});
    QVERIFY2(greedy.exitCode == 0, qPrintable(greedy.err));
    QVERIFY2(greedy.out.startsWith("\n"), qPrintable(greedy.out));  // the text has line ends: the default prime
}

void TestCharLmCli::generateJsonHasEntropyPerCharacter()
{
    QVERIFY(!m_model.isEmpty());
    const CliResult r = runAttnscope({"generate", "--model", m_model, "--prime", "First", "--length", "30", "--top-k",
                                      "5", "--json"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const QJsonObject json = QJsonDocument::fromJson(r.out.toUtf8()).object();
    QCOMPARE(json["prime"].toString(), QStringLiteral("First"));
    QCOMPARE(json["top_k"].toInt(), 5);
    const QJsonArray characters = json["characters"].toArray();
    QCOMPARE(characters.size(), 30);
    QString generated;
    for (const QJsonValue &value : characters) {
        const QJsonObject c = value.toObject();
        generated += c["character"].toString();
        // Drawn from at most five characters: entropy up to log2 5 bits, and a probability above 0.
        QVERIFY(c["entropy_bits"].toDouble(-1) >= 0 && c["entropy_bits"].toDouble() <= std::log2(5.0) + 1e-9);
        QVERIFY(c["probability"].toDouble() > 0 && c["probability"].toDouble() <= 1);
    }
    QCOMPARE(generated, json["generated"].toString());
}

void TestCharLmCli::latencyPrintsFigures()
{
    QVERIFY(!m_model.isEmpty());
    const CliResult r = runAttnscope({"generate", "--model", m_model, "--latency", "200", "--temperature", "1"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY2(r.out.contains("ms median"), qPrintable(r.out));
    const QString line = r.out.section("JSON ", 1).section('\n', 0, 0);
    const QJsonObject json = QJsonDocument::fromJson(line.toUtf8()).object();
    QCOMPARE(json["kind"].toString(), QStringLiteral("latency"));
    QCOMPARE(json["chars"].toInt(), 200);
    QVERIFY(json["median_ms"].toDouble() > 0);
    QVERIFY(json["p99_ms"].toDouble() >= json["median_ms"].toDouble());
}

void TestCharLmCli::explainPrintsTheScores()
{
    QVERIFY(!m_model.isEmpty());
    const QStringList explain{"charlm", "explain", "--model", m_model, "--last", "12"};
    const CliResult table = runAttnscope(explain + QStringList{"First Citizen"});
    QVERIFY2(table.exitCode == 0, qPrintable(table.err));
    QVERIFY2(table.out.contains("the model expects"), qPrintable(table.out));
    QVERIFY2(table.out.contains("completeness gap"), qPrintable(table.out));
    const QStringList rows = table.out.split('\n').filter(QRegularExpression("^ +-\\d+  "));
    QCOMPARE(rows.size(), 12);
    QVERIFY2(rows.front().simplified().startsWith("-12 i "), qPrintable(rows.front()));
    QVERIFY2(rows.back().simplified().startsWith("-1 n "), qPrintable(rows.back()));

    const CliResult r = runAttnscope(explain + QStringList{"--json", "First Citizen"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const QJsonObject json = QJsonDocument::fromJson(r.out.toUtf8()).object();
    QCOMPARE(json["context"].toString(), QStringLiteral("First Citizen"));
    QCOMPARE(json["integration_steps"].toInt(), 64);
    QCOMPARE(json["next"].toString(), json["predicted"].toString());
    const QJsonArray characters = json["characters"].toArray();
    QCOMPARE(characters.size(), 12);
    double sum = 0;
    for (int i = 0; i < characters.size(); ++i) {
        const QJsonObject c = characters[i].toObject();
        QCOMPARE(c["position"].toInt(), i - 12);
        QCOMPARE(c["character"].toString(), QStringLiteral("First Citizen").mid(1 + i, 1));
        QVERIFY(c["saliency"].toDouble(-1) >= 0);
        sum += c["integrated_gradients"].toDouble();
    }
    const double delta = json["log_probability"].toDouble() - json["baseline_log_probability"].toDouble();
    QVERIFY(std::abs(json["completeness_gap"].toDouble() - std::abs(sum - delta)) < 1e-9);
    QVERIFY2(json["completeness_gap"].toDouble() <= 0.01 * std::abs(delta), qPrintable(r.out));

    // The same scores as CSV, a row per character.
    const CliResult csv = runAttnscope(explain + QStringList{"--csv", "First Citizen"});
    QVERIFY2(csv.exitCode == 0, qPrintable(csv.err));
    const QStringList lines = csv.out.trimmed().split('\n');
    QCOMPARE(lines.front(), QStringLiteral("position,character,saliency,integrated_gradients"));
    QCOMPARE(lines.size(), 1 + characters.size());
    for (int i = 0; i < characters.size(); ++i) {
        const QStringList fields = lines[i + 1].split(',');
        QCOMPARE(fields.size(), 4);
        QCOMPARE(fields[0].toInt(), i - 12);
        QCOMPARE(fields[1], characters[i].toObject()["character"].toString());
        QVERIFY(std::abs(fields[2].toDouble() - characters[i].toObject()["saliency"].toDouble()) < 1e-6);
        QVERIFY(std::abs(fields[3].toDouble() - characters[i].toObject()["integrated_gradients"].toDouble()) < 1e-6);
    }

    const QString other = json["predicted"].toString() == "e" ? "o" : "e";
    const CliResult named = runAttnscope(explain + QStringList{"--json", "--next", other, "First Citizen"});
    QVERIFY2(named.exitCode == 0, qPrintable(named.err));
    const QJsonObject namedJson = QJsonDocument::fromJson(named.out.toUtf8()).object();
    QCOMPARE(namedJson["next"].toString(), other);
    QCOMPARE(namedJson["predicted"].toString(), json["predicted"].toString());
    QVERIFY(namedJson["probability"].toDouble() < json["probability"].toDouble());
}

void TestCharLmCli::helpListsEveryOption()
{
    const CliResult charlm = runAttnscope({"charlm", "--help"});
    QCOMPARE(charlm.exitCode, 0);
    const CliResult generate = runAttnscope({"generate", "--help"});
    QCOMPARE(generate.exitCode, 0);
    const CliResult all = runAttnscope({"--help"});
    QVERIFY(all.out.contains(charlm.out));
    QVERIFY(all.out.contains(generate.out));
    QVERIFY(all.out.contains("attnscope charlm --text FILE --out DIR"));
    QVERIFY(all.out.contains("attnscope charlm explain --model FILE"));
    QCOMPARE(runAttnscope({"charlm", "explain", "--help"}).out, charlm.out);
    const auto check = [](const QString &help, const auto &fields) {
        for (const FieldSpec &field : fields) {
            const QString option = QString::fromStdString("--" + field.key);
            // An on/off flag is listed as "--key, --no-key".
            const QString listed = option + (field.type == FieldType::Flag ? "," : " ");
            const qsizetype line = help.indexOf(QStringLiteral("\n  ") + listed);
            QVERIFY2(line >= 0, qPrintable(option));
            const QString entry = help.mid(line, help.indexOf(QStringLiteral("\n  --"), line + 1) - line).simplified();
            if (field.type == FieldType::Flag) {
                QVERIFY2(entry.contains(QString::fromStdString("--no-" + field.key)), qPrintable(entry));
                continue;
            }
            if (field.type == FieldType::Choice) {
                for (const std::string &choice : field.choices)
                    QVERIFY2(entry.contains(QString::fromStdString(choice)), qPrintable(entry));
                continue;
            }
            FieldValue minimum, maximum;
            minimum.number = field.minimum;
            maximum.number = field.maximum;
            QVERIFY2(entry.contains(QString::fromStdString(formatValue(field, minimum))) &&
                         entry.contains(QString::fromStdString(" to " + formatValue(field, maximum) + ")")),
                     qPrintable(entry));
        }
    };
    check(charlm.out, charModelFields());
    check(charlm.out, charTrainingFields());
    check(generate.out, generateFields());
    for (const char *option : {"--text FILE", "--out DIR", "--prime TEXT", "--model FILE", "--last N", "--steps M",
                               "--next C", "--json", "CONTEXT"})
        QVERIFY2(charlm.out.contains(option), option);
    for (const char *option : {"--model FILE", "--prime TEXT", "--json", "--latency N"})
        QVERIFY2(generate.out.contains(option), option);
}

// generate's sampling options are a table like the configs: sound, and read back from their text.
void TestCharLmCli::generateTableIsSound()
{
    checkTable(generateFields());
}

void TestCharLmCli::badInputIsRefused_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("message");
    const QString out = m_dir.filePath("refused");
    const QString empty = write("empty.txt", "");
    const QString binary = write("binary.bin", QByteArray("\x7f" "ELF\x02\x01\x01\0\0\0\0\0", 12).repeated(50));
    const QString repeated = write("repeated.txt", QByteArray(500, 'a'));
    const QString single = write("single.txt", "a");
    const QString notAFolder = write("file-not-folder", "x");
    QByteArray modelBytes;
    QFile model(m_model);
    if (model.open(QIODevice::ReadOnly))
        modelBytes = model.readAll();
    QByteArray flipped = modelBytes;
    if (!flipped.isEmpty())
        flipped[flipped.size() / 2] = char(flipped[flipped.size() / 2] ^ 0x20);
    const QString damaged = write("damaged.ckpt", flipped);
    const QString truncated = write("truncated.ckpt", modelBytes.left(modelBytes.size() / 3));
    const QStringList train{"charlm", "--text", m_textFile, "--out", out, "--epochs", "1"};
    const QStringList generate{"generate", "--model", m_model};
    const QStringList explain{"charlm", "explain", "--model", m_model};

    QTest::newRow("no text") << QStringList{"charlm", "--out", out} << 2 << "--text FILE and --out DIR are required";
    QTest::newRow("no out") << QStringList{"charlm", "--text", m_textFile} << 2 << "--text FILE and --out DIR";
    QTest::newRow("unknown option") << train + QStringList{"--bogus", "1"} << 2 << "unknown option --bogus";
    QTest::newRow("unknown cell") << train + QStringList{"--cell", "transformer"} << 2 << "--cell";
    QTest::newRow("no hidden units") << train + QStringList{"--hidden", "0"} << 2 << "--hidden expects";
    QTest::newRow("absurd learning rate") << train + QStringList{"--lr", "50"} << 2 << "--lr expects";
    QTest::newRow("negative validation") << train + QStringList{"--val", "-0.1"} << 2 << "--val expects";
    QTest::newRow("negative threads") << train + QStringList{"--threads", "-1"} << 2 << "--threads expects";
    QTest::newRow("empty prime") << train + QStringList{"--prime", ""} << 2 << "--prime needs";
    QTest::newRow("stray argument") << train + QStringList{"extra"} << 2 << "unexpected argument 'extra'";
    QTest::newRow("missing text") << QStringList{"charlm", "--text", m_dir.filePath("nope.txt"), "--out", out} << 1
                                  << "nope.txt";
    QTest::newRow("empty text") << QStringList{"charlm", "--text", empty, "--out", out} << 1 << "The text is empty";
    QTest::newRow("binary text") << QStringList{"charlm", "--text", binary, "--out", out} << 1 << "binary file";
    QTest::newRow("one character repeated") << QStringList{"charlm", "--text", repeated, "--out", out} << 1
                                            << "one character repeated";
    QTest::newRow("one character") << QStringList{"charlm", "--text", single, "--out", out} << 1
                                   << "The text has one character";
    QTest::newRow("prime outside the text") << train + QStringList{"--prime", "#@"} << 1
                                            << "has no character of the text's alphabet";
    QTest::newRow("out is a file") << QStringList{"charlm", "--text", m_textFile, "--out", notAFolder, "--epochs", "1"}
                                   << 1 << "cannot create output folder";

    QTest::newRow("explain: no model") << QStringList{"charlm", "explain", "First"} << 2 << "--model FILE is required";
    QTest::newRow("explain: no context") << explain << 2 << "the context to explain is missing";
    QTest::newRow("explain: empty context") << explain + QStringList{""} << 2 << "the context is empty";
    QTest::newRow("explain: two contexts") << explain + QStringList{"First", "Citizen"} << 2
                                           << "unexpected argument 'Citizen'";
    QTest::newRow("explain: none to explain") << explain + QStringList{"--last", "0", "First"} << 2 << "--last expects";
    QTest::newRow("explain: too many to explain") << explain + QStringList{"--last", "201", "First"} << 2
                                                  << "--last expects";
    QTest::newRow("explain: json and csv") << explain + QStringList{"--json", "--csv", "First"} << 2
                                           << "give --json or --csv, not both";
    QTest::newRow("explain: no steps") << explain + QStringList{"--steps", "0", "First"} << 2 << "--steps expects";
    QTest::newRow("explain: two next characters") << explain + QStringList{"--next", "ab", "First"} << 2
                                                  << "--next takes one character";
    QTest::newRow("explain: character outside the model") << explain + QStringList{"First #"} << 1
                                                          << "'#' (position 7) is not in the model's alphabet";
    QTest::newRow("explain: next outside the model") << explain + QStringList{"--next", "#", "First"} << 1
                                                     << "The character to explain, '#',";
    QTest::newRow("explain: missing model") << QStringList{"charlm", "explain", "--model", m_dir.filePath("nope.ckpt"), "a"}
                                            << 1 << "nope.ckpt";
    QTest::newRow("explain: the attention lab's model")
        << QStringList{"charlm", "explain", "--model", QStringLiteral(ATTENTION_CHECKPOINT), "a"} << 1
        << "another kind of AttnScope file";

    QTest::newRow("no model") << QStringList{"generate", "--prime", "a"} << 2 << "--model FILE is required";
    QTest::newRow("negative temperature") << generate + QStringList{"--temperature", "-1"} << 2 << "--temperature expects";
    QTest::newRow("no length") << generate + QStringList{"--length", "0"} << 2 << "--length expects";
    QTest::newRow("latency and json") << generate + QStringList{"--latency", "10", "--json"} << 2 << "leave out --json";
    QTest::newRow("prime as argument") << generate + QStringList{"The"} << 2 << "unexpected argument 'The'";
    QTest::newRow("missing model") << QStringList{"generate", "--model", m_dir.filePath("nope.ckpt")} << 1 << "nope.ckpt";
    QTest::newRow("the attention lab's model") << QStringList{"generate", "--model", QStringLiteral(ATTENTION_CHECKPOINT)}
                                               << 1 << "another kind of AttnScope file";
    QTest::newRow("damaged model") << QStringList{"generate", "--model", damaged} << 1 << "damaged (checksum";
    QTest::newRow("truncated model") << QStringList{"generate", "--model", truncated} << 1 << "is truncated";
    QTest::newRow("the text as a model") << QStringList{"generate", "--model", m_textFile} << 1
                                         << "not a character model checkpoint";
    QTest::newRow("prime outside the model") << generate + QStringList{"--prime", "#@"} << 1
                                             << "has no character of the model's alphabet";
}

void TestCharLmCli::badInputIsRefused()
{
    QFETCH(QStringList, arguments);
    QFETCH(int, exitCode);
    QFETCH(QString, message);
    const CliResult r = runAttnscope(arguments);
    QCOMPARE(r.exitCode, exitCode);
    QVERIFY2(r.err.contains(message), qPrintable(r.err));
    QVERIFY2(r.out.isEmpty(), qPrintable(r.out));
    QVERIFY2(!QFileInfo::exists(m_dir.filePath("refused")), "a refused run left its output folder behind");
}

ATTNSCOPE_TEST(charlmcli, TestCharLmCli)
#include "tst_charlmcli.moc"
