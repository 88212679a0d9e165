#include "tests/common/testregistry.h"
#include "app/workbench/labmodule.h"
#include "tests/common/clirunner.h"

#include <QtTest>

#include <QJsonArray>

// The attnscope command line as a user runs it: exit codes, messages and the files it writes.
class TestCli : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void badOptionsExitWithTwo_data();
    void badOptionsExitWithTwo();
    void trainWritesAllFiles();
    void trainOnACorpusReportsItsDefaults();
    void reverseAfterTraining();
    void reverseWithoutModelUsesTheBundledOne();
    void reverseReportsBadModelFile();
    void reverseWithBeamListsTheNBest();
    void reverseCutsLongInputWithANotice();
    void divergingTrainingFailsClearly();
    void evaluatePrintsExactMatch();
    void evaluateSetsGreedyBesideBeam();
    void trainWithoutAttentionSaysSo();

private:
    using Result = CliResult;
    Result run(const QStringList &arguments, QProcessEnvironment env = QProcessEnvironment::systemEnvironment())
    {
        return runAttnscope(arguments, std::move(env));
    }
    QTemporaryDir m_dir;
    QString m_model;
};

void TestCli::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QFile words(m_dir.filePath("words.txt"));
    QVERIFY(words.open(QIODevice::WriteOnly));
    words.write("red green blue cat dog sun\n");
}

void TestCli::badOptionsExitWithTwo_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("message");
    QTest::newRow("no --out") << QStringList{"train"} << "--out DIR is required";
    QTest::newRow("unknown option") << QStringList{"train", "--out", "x", "--colour", "red"} << "unknown option --colour";
    QTest::newRow("zero hidden") << QStringList{"train", "--out", "x", "--hidden", "0"} << "--hidden expects";
    QTest::newRow("negative lr") << QStringList{"train", "--out", "x", "--lr", "-1"} << "--lr expects";
    QTest::newRow("not a number") << QStringList{"train", "--out", "x", "--epochs", "ten"} << "--epochs expects";
    QTest::newRow("huge batch") << QStringList{"train", "--out", "x", "--batch", "99999999"} << "--batch expects";
    QTest::newRow("bad task") << QStringList{"train", "--out", "x", "--task", "sort"} << "--task must be";
    QTest::newRow("min above max") << QStringList{"train", "--out", "x", "--min-len", "8", "--max-len", "4"} << "maximum length 4";
    QTest::newRow("odd bidirectional") << QStringList{"train", "--out", "x", "--hidden", "33"} << "must be even";
    QTest::newRow("missing value") << QStringList{"train", "--out"} << "Missing value after '--out'";
    QTest::newRow("reverse without sentence") << QStringList{"reverse", "--model", "m.ckpt"} << "exactly one sentence";
    QTest::newRow("unknown command") << QStringList{"fly"} << "unknown command 'fly'";
    QTest::newRow("zero embed") << QStringList{"train", "--out", "x", "--embed", "0"} << "--embed expects";
    QTest::newRow("absurd embed") << QStringList{"train", "--out", "x", "--embed", "1000000"} << "--embed expects";
    QTest::newRow("negative layers") << QStringList{"train", "--out", "x", "--layers", "-2"} << "--layers expects";
    QTest::newRow("absurd layers") << QStringList{"train", "--out", "x", "--layers", "500"} << "--layers expects";
    QTest::newRow("zero epochs") << QStringList{"train", "--out", "x", "--epochs", "0"} << "--epochs expects";
    QTest::newRow("zero batch") << QStringList{"train", "--out", "x", "--batch", "0"} << "--batch expects";
    QTest::newRow("zero train size") << QStringList{"train", "--out", "x", "--train", "0"} << "--train expects";
    QTest::newRow("negative threads") << QStringList{"train", "--out", "x", "--threads", "-1"} << "--threads expects";
    QTest::newRow("integer overflow") << QStringList{"train", "--out", "x", "--hidden", "99999999999999999999"}
                                      << "--hidden expects";
    QTest::newRow("zero lr") << QStringList{"train", "--out", "x", "--lr", "0"} << "--lr expects";
    QTest::newRow("nan lr") << QStringList{"train", "--out", "x", "--lr", "nan"} << "--lr expects";
    QTest::newRow("infinite lr") << QStringList{"train", "--out", "x", "--lr", "inf"} << "--lr expects";
    QTest::newRow("dropout one") << QStringList{"train", "--out", "x", "--dropout", "1"} << "--dropout expects";
    QTest::newRow("empty value") << QStringList{"train", "--out", "x", "--embed="} << "--embed expects";
    QTest::newRow("bad attention") << QStringList{"train", "--out", "x", "--attention", "luong"} << "--attention must be";
    QTest::newRow("bad attention in list") << QStringList{"compare", "--out", "x", "--attention", "bahdanau,dot"}
                                           << "--attention takes a comma-separated list";
    QTest::newRow("attention listed twice") << QStringList{"compare", "--out", "x", "--attention", "none,none"}
                                            << "lists 'none' twice";
    QTest::newRow("probe shorter than training")
        << QStringList{"compare", "--out", "x", "--max-len", "10", "--probe-max-len", "5"} << "is below --max-len";
    QTest::newRow("explain by rollout") << QStringList{"explain", "--method", "rollout", "the cat"}
                                        << "--method must be attention, saliency, inputxgrad, ig, occlusion or all, got "
                                           "'rollout'";
    QTest::newRow("compare on a corpus") << QStringList{"compare", "--out", "x", "--corpus", "c.txt"}
                                         << "--corpus is not supported";
    QTest::newRow("compare without --out") << QStringList{"compare"} << "--out DIR is required";
    QTest::newRow("beam 0") << QStringList{"reverse", "--model", "m.ckpt", "--beam", "0", "the cat"}
                            << "--beam expects a whole number from 1 to 64, got '0'";
    QTest::newRow("beam 65") << QStringList{"reverse", "--model", "m.ckpt", "--beam", "65", "the cat"} << "--beam expects";
    QTest::newRow("alpha above 2") << QStringList{"reverse", "--model", "m.ckpt", "--alpha", "2.5", "the cat"}
                                   << "--alpha expects a number from 0 to 2";
    QTest::newRow("nbest above beam") << QStringList{"reverse", "--model", "m.ckpt", "--beam", "2", "--nbest", "3", "the cat"}
                                      << "--nbest 3 is more than the beam keeps (--beam 2)";
    QTest::newRow("explain zero sentences") << QStringList{"explain", "--sentences", "0"}
                                            << "--sentences expects a whole number from 1 to";
    QTest::newRow("explain absurd sentences") << QStringList{"explain", "--sentences", "99999999"} << "--sentences expects";
    QTest::newRow("explain bad mode") << QStringList{"explain", "--mode", "remove"} << "--mode must be drop or unknown";
    QTest::newRow("explain empty sentence") << QStringList{"explain", ""} << "at least two words";
    QTest::newRow("explain one word") << QStringList{"explain", "cat"} << "at least two words";
    QTest::newRow("explain two sentences") << QStringList{"explain", "the cat", "a dog"} << "at most one sentence";
    QTest::newRow("explain bad method")
        << QStringList{"explain", "--method", "lime", "the cat"}
        << "--method must be attention, saliency, inputxgrad, ig, occlusion or all, got 'lime'";
    QTest::newRow("explain method without sentence") << QStringList{"explain", "--method", "ig"}
                                                     << "--method explains one sentence";
    QTest::newRow("explain method one word") << QStringList{"explain", "--method", "all", "cat"}
                                             << "at least two words";
    QTest::newRow("explain zero steps") << QStringList{"explain", "--method", "ig", "--steps", "0", "the cat"}
                                        << "--steps expects a whole number from 1 to 1024, got '0'";
    QTest::newRow("explain absurd steps") << QStringList{"explain", "--method", "all", "--steps", "5000", "the cat"}
                                          << "--steps expects";
    QTest::newRow("explain steps without ig")
        << QStringList{"explain", "--method", "saliency", "--steps", "8", "the cat"}
        << "--steps sets integrated gradients: it goes with --method ig or all";
    QTest::newRow("explain bad baseline") << QStringList{"explain", "--method", "ig", "--baseline", "one", "the cat"}
                                          << "--baseline must be zero or unknown, got 'one'";
    QTest::newRow("explain baseline without method") << QStringList{"explain", "--baseline", "zero", "the cat"}
                                                     << "--baseline goes with --method or --faithfulness";
    QTest::newRow("explain csv without method") << QStringList{"explain", "--csv", "the cat"}
                                                << "--csv goes with --method or --faithfulness";
    QTest::newRow("explain json and csv") << QStringList{"explain", "--method", "all", "--json", "--csv", "the cat"}
                                          << "give --json or --csv, not both";
    QTest::newRow("explain faithfulness of a sentence") << QStringList{"explain", "--faithfulness", "the cat"}
                                                        << "--faithfulness measures the model's test split";
    QTest::newRow("explain faithfulness zero sentences") << QStringList{"explain", "--faithfulness", "--sentences", "0"}
                                                         << "--sentences expects";
}

void TestCli::badOptionsExitWithTwo()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, message);
    const Result r = run(arguments);
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(message), qPrintable(r.err));
}

void TestCli::trainWritesAllFiles()
{
    const QString out = m_dir.filePath("run");
    const Result r = run({"train", "--out", out, "--words-file", m_dir.filePath("words.txt"), "--min-len", "2", "--max-len",
                          "4", "--train", "600", "--val", "50", "--test", "50", "--embed", "16", "--hidden", "32",
                          "--layers", "1", "--epochs", "3", "--threads", "1", "--lr", "0.01"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY(r.out.contains("epoch   3 | train loss"));
    QVERIFY(r.out.contains("Test exact match:"));
    QCOMPARE(r.out.count(QRegularExpression("^Input: \".*\"  Output: \".*\"  Reference: \".*\"  (match|no match)$",
                                            QRegularExpression::MultilineOption)),
             10);

    for (const char *name : {"model.ckpt", "metrics.json", "examples.txt", "attention_heatmap.png", "analysis.md"})
        QVERIFY2(QFileInfo::exists(QDir(out).filePath(name)), name);

    QFile metricsFile(QDir(out).filePath("metrics.json"));
    QVERIFY(metricsFile.open(QIODevice::ReadOnly));
    const QJsonObject metrics = QJsonDocument::fromJson(metricsFile.readAll()).object();
    const QJsonArray epochs = metrics["epochs"].toArray();
    QCOMPARE(epochs.size(), 3);
    for (const char *key : {"epoch", "train_loss", "val_loss", "val_exact_match", "seconds", "samples_per_second",
                            "learning_rate", "gradient_norm", "val_alignment_accuracy", "val_alignment_weight",
                            "val_alignment_steps"})
        QVERIFY2(epochs[2].toObject().contains(key), key);
    // The steps behind each epoch, to tell why validation fell (validationfall.h): the rate, and the
    // gradient norm the default clipping measures.
    QVERIFY(epochs[2].toObject()["learning_rate"].toDouble() > 0);
    QVERIFY(epochs[2].toObject()["gradient_norm"].toDouble() > 0);
    // Alignment on the validation set after every epoch: each output word of the 50 sentences that
    // has a source word to come from is scored, and the printed figure is the one written.
    for (int i = 0; i < epochs.size(); ++i) {
        const QJsonObject epoch = epochs[i].toObject();
        const double accuracy = epoch["val_alignment_accuracy"].toDouble(-1);
        const double weight = epoch["val_alignment_weight"].toDouble(-1);
        QVERIFY2(accuracy >= 0 && accuracy <= 1, qPrintable(QString::number(accuracy)));
        QVERIFY2(weight > 0 && weight <= 1, qPrintable(QString::number(weight)));
        QVERIFY(epoch["val_alignment_steps"].toInt() > 0);
        QVERIFY(epoch["val_alignment_steps"].toInt() <= 50 * 4);
        QVERIFY2(r.out.contains(QStringLiteral("val aligned %1%").arg(100 * accuracy, 0, 'f', 2)), qPrintable(r.out));
    }
    QVERIFY(metrics["best_epoch"].toInt() >= 1);
    const QJsonObject test = metrics["test"].toObject();
    QVERIFY(test["exact_match"].toDouble() >= 0 && test["exact_match"].toDouble() <= 1);
    QVERIFY(test.contains("token_accuracy"));
    QCOMPARE(test["by_length"].toObject().keys(), (QStringList{"2", "3", "4"}));
    QCOMPARE(metrics["config"].toObject()["model"].toObject()["hidden"].toInt(), 32);
    // The synthetic task's settings: the limit given, every word kept, the rate halved per epoch.
    const QJsonObject effective = metrics["effective_settings"].toObject();
    QCOMPARE(effective["corpus"].toBool(true), false);
    QCOMPARE(effective["attention"].toString(), QStringLiteral("bahdanau"));
    QCOMPARE(effective["max_length"].toInt(), 4);
    QCOMPARE(effective["max_length_from"].toString(), QStringLiteral("setting"));
    QVERIFY(effective["length_percentile"].isNull());
    QCOMPARE(effective["min_count"].toInt(), 1);
    QCOMPARE(effective["vocabulary_size"].toInt(), 4 + 6);
    QCOMPARE(effective["lr_epoch_decay"].toDouble(), 0.5);
    QCOMPARE(effective["lr_epoch_decay_auto"].toBool(), true);

    const QImage heatmap(QDir(out).filePath("attention_heatmap.png"));
    QCOMPARE(heatmap.size(), QSize(1000, 800));

    QFile examples(QDir(out).filePath("examples.txt"));
    QVERIFY(examples.open(QIODevice::ReadOnly));
    QCOMPARE(QString::fromUtf8(examples.readAll()).count('\n'), 50);

    QFile analysis(QDir(out).filePath("analysis.md"));
    QVERIFY(analysis.open(QIODevice::ReadOnly));
    const QString md = QString::fromUtf8(analysis.readAll());
    for (const char *heading : {"## 1.", "## 2.", "## 3.", "## 4."})
        QVERIFY(md.contains(heading));
    const double lastAccuracy = epochs[2].toObject()["val_alignment_accuracy"].toDouble();
    QVERIFY2(md.contains(QStringLiteral("After epoch 3 alignment accuracy was %1%").arg(100 * lastAccuracy, 0, 'f', 1)),
             qPrintable(md));
    m_model = QDir(out).filePath("model.ckpt");
}

void TestCli::trainOnACorpusReportsItsDefaults()
{
    // 98 lines of 3 to 6 words, one of 30, one of 2, one blank: the 99th percentile of the
    // non-blank lengths is 6. Each word but "once" occurs many times.
    const QStringList words = {"red", "green", "blue", "cat", "dog", "sun"};
    QString text;
    for (int line = 0; line < 98; ++line) {
        QStringList sentence;
        for (int w = 0; w < 3 + line % 4; ++w)
            sentence << (line == 0 && w == 0 ? QStringLiteral("once") : words[(line + w) % words.size()]);
        text += sentence.join(' ') + '\n';
    }
    text += QStringLiteral("a b c d e f g h i j k l m n o p q r s t u v w x y z one two three four\n\ntoo short\n");
    QFile corpus(m_dir.filePath("corpus.txt"));
    QVERIFY(corpus.open(QIODevice::WriteOnly));
    corpus.write(text.toUtf8());
    corpus.close();

    const QString out = m_dir.filePath("corpusrun");
    const Result r = run({"train", "--out", out, "--corpus", corpus.fileName(), "--embed", "16", "--hidden", "32",
                          "--layers", "1", "--epochs", "1", "--threads", "1"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    // Said before training starts, not only after.
    const int limits = r.out.indexOf("corpus: lengths 3-6 tokens (auto: the 99th percentile of the file's line "
                                     "lengths); skipped 1 blank, 1 longer and 1 shorter lines");
    const int vocabulary = r.out.indexOf(QRegularExpression("vocabulary: \\d+ words, those seen at least 2 times "
                                                            "\\(auto\\)"));
    const int schedule = r.out.indexOf("learning rate: x0.8 per epoch (auto), x0.5 after an epoch without a "
                                       "better validation loss");
    const int firstEpoch = r.out.indexOf("epoch   1 |");
    QVERIFY2(limits >= 0 && vocabulary > limits && schedule > vocabulary && firstEpoch > schedule, qPrintable(r.out));

    QFile metricsFile(QDir(out).filePath("metrics.json"));
    QVERIFY(metricsFile.open(QIODevice::ReadOnly));
    const QJsonObject metrics = QJsonDocument::fromJson(metricsFile.readAll()).object();
    const QJsonObject effective = metrics["effective_settings"].toObject();
    QCOMPARE(effective["corpus"].toBool(), true);
    QCOMPARE(effective["attention"].toString(), QStringLiteral("location"));
    QCOMPARE(effective["min_length"].toInt(), 3);
    QCOMPARE(effective["max_length"].toInt(), 6);
    QCOMPARE(effective["max_length_from"].toString(), QStringLiteral("corpus percentile"));
    QCOMPARE(effective["length_percentile"].toInt(), 99);
    QCOMPARE(effective["skipped_blank"].toInt(), 1);
    QCOMPARE(effective["skipped_too_long"].toInt(), 1);
    QCOMPARE(effective["skipped_too_short"].toInt(), 1);
    QCOMPARE(effective["min_count"].toInt(), 2);
    QCOMPARE(effective["min_count_auto"].toBool(), true);
    QCOMPARE(effective["max_vocabulary"].toInt(), 10000);
    QVERIFY2(r.out.contains(QStringLiteral("vocabulary: %1 words").arg(effective["vocabulary_size"].toInt())),
             qPrintable(r.out));
    QCOMPARE(effective["vocabulary_size"].toInt(), 4 + 6);  // "once" is not among them
    QCOMPARE(effective["lr_epoch_decay"].toDouble(), 0.8);
    QCOMPARE(effective["lr_epoch_decay_auto"].toBool(), true);
    QCOMPARE(effective["lr_decay_on_plateau"].toDouble(), 0.5);
    // The settings as given: auto is 0.
    const QJsonObject dataset = metrics["config"].toObject()["dataset"].toObject();
    QCOMPARE(dataset["max_len"].toInt(-1), 0);
    QCOMPARE(dataset["min_count"].toInt(-1), 0);

    // Exact match by length beside the corpus's 98 kept lines: 25, 25, 24 and 24 of 3 to 6 words.
    const QJsonObject lengths = metrics["length_report"].toObject();
    const QJsonArray rows = lengths["by_length"].toArray();
    QCOMPARE(rows.size(), 4);
    const QJsonObject testByLength = metrics["test"].toObject()["by_length"].toObject();
    QJsonArray below;
    for (int i = 0; i < 4; ++i) {
        const QJsonObject row = rows[i].toObject();
        QCOMPARE(row["length"].toInt(), 3 + i);
        QCOMPARE(row["corpus_sentences"].toInt(), i < 2 ? 25 : 24);
        QCOMPARE(row["corpus_share"].toDouble(), (i < 2 ? 25 : 24) / 98.0);
        const QJsonObject tested = testByLength[QString::number(3 + i)].toObject();
        QCOMPARE(row["test_sentences"].toInt(), tested["total"].toInt());
        if (row["test_sentences"].toInt() > 0 && row["test_exact_match"].toDouble() < 0.9)
            below.append(3 + i);
    }
    QCOMPARE(lengths["below_bar"].toArray(), below);
    QVERIFY2(r.out.contains("Exact match by length beside the corpus:\nlength  corpus sentences"), qPrintable(r.out));
    QVERIFY2(r.out.contains(below.isEmpty() ? "Every length with test sentences reaches 90%." : "Below 90%:"),
             qPrintable(r.out));
}

void TestCli::reverseAfterTraining()
{
    QVERIFY(!m_model.isEmpty());
    const Result plain = run({"reverse", "--model", m_model, "red cat"});
    QCOMPARE(plain.exitCode, 0);
    QCOMPARE(plain.out.count('\n'), 1);

    const QString png = m_dir.filePath("one.png");
    const Result r = run({"reverse", "--model", m_model, "--json", "--heatmap", png, "red zebra cat"});
    QCOMPARE(r.exitCode, 0);
    const QJsonObject json = QJsonDocument::fromJson(r.out.toUtf8()).object();
    QCOMPARE(json["source_tokens"].toArray().size(), 4);
    QCOMPARE(json["source_known"].toArray()[1].toBool(), false);
    const QJsonArray attention = json["attention"].toArray();
    QCOMPARE(attention.size(), json["output_tokens"].toArray().size());
    QCOMPARE(attention[0].toArray().size(), 4);
    QVERIFY(json.contains("unk_replacement_used"));
    QVERIFY(!QImage(png).isNull());
}

void TestCli::reverseReportsBadModelFile()
{
    QFile junk(m_dir.filePath("junk.ckpt"));
    QVERIFY(junk.open(QIODevice::WriteOnly));
    junk.write("this is not a model");
    junk.close();
    Result r = run({"reverse", "--model", junk.fileName(), "the cat"});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains("not an AttnScope checkpoint"), qPrintable(r.err));
    r = run({"reverse", "--model", m_dir.filePath("absent.ckpt"), "the cat"});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains("cannot open"), qPrintable(r.err));
}

void TestCli::reverseWithBeamListsTheNBest()
{
    QVERIFY(!m_model.isEmpty());
    const Result plain = run({"reverse", "--model", m_model, "--beam", "3", "--nbest", "3", "red cat sun"});
    QVERIFY2(plain.exitCode == 0, qPrintable(plain.err));
    const QStringList lines = plain.out.split('\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 5);
    QVERIFY2(lines[1].startsWith("n-best (beam 3, alpha 0.6"), qPrintable(plain.out));
    QVERIFY2(QRegularExpression("^  1\\. score +-?\\d+\\.\\d{4}  log P +-?\\d+\\.\\d{4}  ").match(lines[2]).hasMatch(),
             qPrintable(lines[2]));

    const Result r = run({"reverse", "--model", m_model, "--json", "--beam", "3", "--alpha", "1", "--nbest", "2",
                          "red cat sun"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const QJsonObject json = QJsonDocument::fromJson(r.out.toUtf8()).object();
    QCOMPARE(json["beam"].toObject()["width"].toInt(), 3);
    const QJsonArray nbest = json["nbest"].toArray();
    QCOMPARE(nbest.size(), 2);
    QCOMPARE(json["output"].toString(), nbest[0].toObject()["output"].toString());
    QVERIFY(nbest[0].toObject()["score"].toDouble() >= nbest[1].toObject()["score"].toDouble());
    for (const QJsonValue &h : nbest) {
        const QJsonObject o = h.toObject();
        // alpha 1: the score is the mean log-probability per token
        QVERIFY(std::abs(o["score"].toDouble() - o["log_prob"].toDouble() / o["tokens"].toArray().size()) < 1e-9);
    }
    const QJsonArray steps = json["beam_steps"].toArray();
    QVERIFY(!steps.isEmpty());
    for (const QJsonValue &step : steps) {
        const QJsonArray kept = step.toObject()["kept"].toArray();
        QVERIFY(!kept.isEmpty() && kept.size() <= 3);
        QVERIFY(kept[0].toObject().contains("tokens") && kept[0].toObject().contains("finished"));
    }
}

void TestCli::reverseCutsLongInputWithANotice()
{
    QVERIFY(!m_model.isEmpty());
    const Result r = run({"reverse", "--model", m_model, QStringLiteral("red cat ").repeated(500)});
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.err.contains("cut to its first 100 tokens"), qPrintable(r.err));
    QVERIFY(r.out.count(' ') <= 2 * 100 + 5);
}

void TestCli::divergingTrainingFailsClearly()
{
    const Result r = run({"train", "--out", m_dir.filePath("diverged"), "--words-file", m_dir.filePath("words.txt"),
                          "--min-len", "2", "--max-len", "4", "--train", "300", "--val", "50", "--test", "50", "--embed",
                          "16", "--hidden", "32", "--layers", "1", "--epochs", "3", "--threads", "1", "--lr", "10"});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.out.contains("Training diverged") && r.out.contains("lower learning rate"), qPrintable(r.out));
}

void TestCli::evaluatePrintsExactMatch()
{
    QVERIFY(!m_model.isEmpty());
    const Result r = run({"evaluate", "--model", m_model, "--examples", "3"});
    QCOMPARE(r.exitCode, 0);
    QVERIFY(r.out.contains("Test exact match:"));
    QCOMPARE(r.out.count(QRegularExpression("^Input: ", QRegularExpression::MultilineOption)), 3);
}

void TestCli::evaluateSetsGreedyBesideBeam()
{
    QVERIFY(!m_model.isEmpty());
    Result r = run({"evaluate", "--model", m_model, "--beam", "3", "--alpha", "1", "--json"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const QJsonObject root = QJsonDocument::fromJson(r.out.toUtf8()).object();
    const QJsonArray settings = root["settings"].toArray();
    QCOMPARE(settings.size(), 2);
    QCOMPARE(settings[0].toObject()["width"].toInt(), 1);
    QCOMPARE(settings[0].toObject()["differ_from_greedy"].toInt(), 0);
    QCOMPARE(settings[1].toObject()["width"].toInt(), 3);
    QCOMPARE(settings[1].toObject()["alpha"].toDouble(), 1.0);
    QCOMPARE(root["sentences"].toInt(), 50);  // the test split the model was trained with
    QCOMPARE(root["disagreements"].toArray().size(), settings[1].toObject()["differ_from_greedy"].toInt());
    for (const QJsonValue &setting : settings) {
        const double exact = setting.toObject()["exact_match"].toDouble();
        QVERIFY(exact >= 0 && exact <= 1);
        QVERIFY(setting.toObject()["mean_log_prob"].toDouble() <= 0);
    }

    r = run({"evaluate", "--model", m_model, "--beams"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    for (const char *row : {"greedy ", "beam 2, alpha 0 ", "beam 5, alpha 0.6 ", "beam 10, alpha 1 "})
        QVERIFY2(r.out.contains(QString::fromLatin1(row)), qPrintable(r.out));

    for (const QStringList &bad : {QStringList{"--alpha", "0.5"}, QStringList{"--beams", "--beam", "2"},
                                   QStringList{"--json"}, QStringList{"--batched", "--beam", "2"},
                                   QStringList{"--beam", "0"}, QStringList{"--beam", "2", "--alpha", "3"}}) {
        r = run(QStringList{"evaluate", "--model", m_model} + bad);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("attnscope evaluate:"), qPrintable(r.err));
        QVERIFY(r.out.isEmpty());
    }
}

// Variant none: no attention, so the heatmap and analysis say so and <UNK> is left alone.
void TestCli::trainWithoutAttentionSaysSo()
{
    const QString out = m_dir.filePath("none");
    const Result r = run({"train", "--out", out, "--attention", "none", "--words-file", m_dir.filePath("words.txt"),
                          "--min-len", "2", "--max-len", "4", "--train", "300", "--val", "30", "--test", "30", "--embed",
                          "16", "--hidden", "32", "--layers", "1", "--epochs", "1", "--threads", "1"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY(r.out.contains("attention none"));
    QFile analysis(QDir(out).filePath("analysis.md"));
    QVERIFY(analysis.open(QIODevice::ReadOnly));
    QVERIFY(QString::fromUtf8(analysis.readAll()).contains("This model has no attention (variant none)"));
    // Alignment does not apply: null, not zero.
    QFile metricsFile(QDir(out).filePath("metrics.json"));
    QVERIFY(metricsFile.open(QIODevice::ReadOnly));
    const QJsonObject epoch =
        QJsonDocument::fromJson(metricsFile.readAll()).object()["epochs"].toArray().first().toObject();
    QVERIFY(epoch["val_alignment_accuracy"].isNull());
    QVERIFY(epoch["val_alignment_weight"].isNull());
    QCOMPARE(epoch["val_alignment_steps"].toInt(), 0);
    QVERIFY(!r.out.contains("val aligned"));
    QCOMPARE(QImage(QDir(out).filePath("attention_heatmap.png")).size(), QSize(1000, 800));

    const Result reversed = run({"reverse", "--model", QDir(out).filePath("model.ckpt"), "--json", "red zebra"});
    QCOMPARE(reversed.exitCode, 0);
    QVERIFY2(reversed.err.contains("no attention (variant none)"), qPrintable(reversed.err));
    const QJsonObject json = QJsonDocument::fromJson(reversed.out.toUtf8()).object();
    QVERIFY(json["attention"].toArray().isEmpty());
    QCOMPARE(json["unk_replacement"].toBool(), false);

    const Result explained = run({"explain", "--model", QDir(out).filePath("model.ckpt"), "--sentences", "3"});
    QCOMPARE(explained.exitCode, 1);
    QVERIFY2(explained.err.contains("no attention (variant none)"), qPrintable(explained.err));
}

// Installed, the program reverses from any folder: without --model it decodes with the model
// bundled into it (trained to 99.9% exact match on 3-10 word sentences of the reference words).
void TestCli::reverseWithoutModelUsesTheBundledOne()
{
    const CliResult r = runAttnscope({"reverse", "the cat sat on the mat"});
    QCOMPARE(r.exitCode, 0);
    QCOMPARE(r.out.trimmed(), QStringLiteral("mat the on sat cat the"));
}

ATTNSCOPE_TEST(cli, TestCli)
#include "tst_cli.moc"
