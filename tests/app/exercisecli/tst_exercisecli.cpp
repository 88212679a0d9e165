#include "tests/common/testregistry.h"
#include "app/workbench/labmodule.h"
#include "engine/selfattention/scaleddotproductattention.h"
#include "engine/selfattention/selfattentioninputs.h"
#include "tests/common/clirunner.h"

#include <QtTest>

#include <cmath>

namespace {

QJsonObject readJson(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.readAll()).object();
}

}

// `attnscope exercise`: every lab's exercises listed, each run with the course's settings into
// answers.json.
class TestExerciseCli : public QObject
{
    Q_OBJECT
private slots:
    void listNamesEveryExercise();
    void badUsageExitsWithTwo_data();
    void badUsageExitsWithTwo();
    void digitsRunsTheCoursesSettings();
    void lstmTrainsFromTheEncoderAndFromZeros();
    void selfAttentionIsAnsweredFromTheWeights();
    void skipGramRunsTheCoursesSettings();
    void charRnnRunsTheCoursesSettings();
    void beamsTableTheBundledModel();

private:
    QTemporaryDir m_dir;
};

void TestExerciseCli::listNamesEveryExercise()
{
    const CliResult r = runAttnscope({"exercise", "--list"});
    QCOMPARE(r.exitCode, 0);
    int exercises = 0;
    for (const LabModule &module : labModules())
        for (const Exercise &exercise : module.exercises) {
            QVERIFY2(r.out.contains(QString::fromStdString(exercise.name) + "  [" + module.info.name + "]"),
                     qPrintable(r.out));
            ++exercises;
            QVERIFY(bool(exercise.run));
        }
    QCOMPARE(exercises, 8);  // the course's, as issue 35 lists them
    QVERIFY(runAttnscope({"--help"}).out.contains(QStringLiteral("attnscope exercise --list | NAME --out DIR")));
}

void TestExerciseCli::badUsageExitsWithTwo_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("message");
    QTest::newRow("no exercise") << QStringList{"exercise"} << "name one exercise";
    QTest::newRow("two exercises") << QStringList{"exercise", "skipgram", "beams", "--out", "x"} << "name one exercise";
    QTest::newRow("unknown") << QStringList{"exercise", "nope", "--out", "x"} << "there is no exercise 'nope'";
    QTest::newRow("no folder") << QStringList{"exercise", "skipgram"} << "--out DIR is required";
    QTest::newRow("list and a name") << QStringList{"exercise", "--list", "skipgram"} << "--list takes no exercise";
    QTest::newRow("bad option") << QStringList{"exercise", "--epochs", "3"} << "Run 'attnscope exercise --help'";
}

void TestExerciseCli::badUsageExitsWithTwo()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, message);
    const CliResult r = runAttnscope(arguments);
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(message), qPrintable(r.err));
}

// The digits toy as the course sets it (metrics.json's config), its losses every 20 epochs, its
// heatmap of 3 1 4 1 5, and the same model with Adam beside it.
void TestExerciseCli::digitsRunsTheCoursesSettings()
{
    const QString out = m_dir.filePath(QStringLiteral("digits"));
    const CliResult r = runAttnscope({"exercise", "digits", "--out", out});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const QJsonObject config = readJson(out + "/metrics.json")["config"].toObject();
    const QJsonObject data = config["dataset"].toObject(), model = config["model"].toObject(),
                      training = config["training"].toObject();
    QCOMPARE(data["words"].toArray().size(), 10);
    QCOMPARE(data["min_len"].toInt(), 3);
    QCOMPARE(data["max_len"].toInt(), 5);
    QCOMPARE(data["train"].toInt(), 200);
    QCOMPARE(data["test"].toInt(), 1000);
    QCOMPARE(model["embed"].toInt(), 16);
    QCOMPARE(model["hidden"].toInt(), 32);
    QCOMPARE(model["cell"].toString(), QStringLiteral("rnn"));
    QCOMPARE(model["attention"].toString(), QStringLiteral("bahdanau-after"));
    QVERIFY(!model["bidirectional"].toBool());
    QCOMPARE(training["optimizer"].toString(), QStringLiteral("sgd"));
    QCOMPARE(training["momentum"].toDouble(), 0.0);
    QCOMPARE(training["lr"].toDouble(), 0.01);
    QCOMPARE(training["batch"].toInt(), 1);
    QCOMPARE(training["epochs"].toInt(), 100);
    QCOMPARE(training["lr_epoch_decay"].toDouble(), 1.0);
    QCOMPARE(training["lr_decay"].toDouble(), 1.0);
    QCOMPARE(training["clip"].toDouble(), 0.0);

    const QJsonObject answers = readJson(out + "/answers.json");
    const QJsonArray losses = answers["loss"].toArray();
    QCOMPARE(losses.size(), 5);
    QCOMPARE(losses.last().toObject()["epoch"].toInt(), 100);
    QVERIFY(losses.last().toObject()["train_loss"].toDouble() < losses.first().toObject()["train_loss"].toDouble());
    QCOMPARE(answers["test_sequences"].toInt(), 1000);
    QVERIFY(answers["test_exact_match"].toDouble() > 0.1);  // chance is 1 in 10^3 or more
    QVERIFY(QFile::exists(out + "/digits_heatmap.png"));
    const QJsonObject adam = answers["with_adam"].toObject();
    QCOMPARE(readJson(out + "/adam/metrics.json")["config"].toObject()["training"].toObject()["optimizer"].toString(),
             QStringLiteral("adam"));
    QCOMPARE(adam["loss"].toArray().size(), 5);
    QVERIFY(adam["seconds"].toDouble() > 0);
}

void TestExerciseCli::lstmTrainsFromTheEncoderAndFromZeros()
{
    const QString out = m_dir.filePath(QStringLiteral("lstm"));
    // Two trainings of the course's settings: 78 s alone, twice that beside a build.
    const CliResult r = runAttnscope({"exercise", "lstm-seq2seq", "--out", out},
                                     QProcessEnvironment::systemEnvironment(), 600000);
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const QJsonObject bridged = readJson(out + "/metrics.json")["config"].toObject()["model"].toObject();
    const QJsonObject zeros = readJson(out + "/zeros/metrics.json")["config"].toObject()["model"].toObject();
    QCOMPARE(bridged["cell"].toString(), QStringLiteral("lstm"));
    QCOMPARE(zeros["cell"].toString(), QStringLiteral("lstm"));
    QVERIFY(bridged["bridge"].toBool() && !zeros["bridge"].toBool());
    const QJsonObject answers = readJson(out + "/answers.json");
    const QJsonObject fromEncoder = answers["from_encoder_state"].toObject(), fromZeros = answers["from_zeros"].toObject();
    QVERIFY(fromEncoder["test_exact_match"].toDouble() > 0.5);
    QVERIFY(fromZeros["test_exact_match"].toDouble() > 0.5);
    // The bridge is the one difference: H x H weights and H biases.
    QCOMPARE(fromEncoder["parameters"].toDouble() - fromZeros["parameters"].toDouble(),
             double(bridged["hidden"].toInt() * (bridged["hidden"].toInt() + 1)));
}

// The four sentences' weights are the explorer's (random X, d_model 4, d_k 3, seed 1), and
// reordering without positions permutes them exactly while positions do not.
void TestExerciseCli::selfAttentionIsAnsweredFromTheWeights()
{
    const QString out = m_dir.filePath(QStringLiteral("self-attention"));
    const CliResult r = runAttnscope({"exercise", "self-attention", "--out", out});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const QJsonObject answers = readJson(out + "/answers.json");
    QCOMPARE(answers["exercise"].toString(), QStringLiteral("self-attention"));
    const QJsonArray sentences = answers["sentences"].toArray();
    QCOMPARE(sentences.size(), 4);
    const SelfAttentionInputs in = SelfAttentionInputs::random({"I", "love", "AI"}, 4, 3, 1);
    const ScaledDotProductAttention expected = ScaledDotProductAttention::compute(in.x, in.wq, in.wk, in.wv);
    const QJsonArray weights = sentences[0].toObject()["weights"].toArray();
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            QVERIFY(std::abs(weights[i].toArray()[j].toDouble() - expected.weights.at(i, j)) < 1e-12);
    QCOMPARE(sentences[0].toObject()["each_word"].toArray().size(), 3);
    for (int n = 1; n <= 4; ++n)
        QVERIFY(QFile::exists(out + QStringLiteral("/self_attention_%1.png").arg(n)));
    const QJsonArray comparisons = answers["comparisons"].toArray();
    QCOMPARE(comparisons.size(), 4);
    const QJsonObject reordered = comparisons[2].toObject(), withPositions = comparisons[3].toObject();
    QVERIFY(reordered["reordering"].toBool() && !reordered["positions"].toBool());
    QVERIFY(reordered["largest_weight_change"].toDouble() < 1e-9);
    QVERIFY(withPositions["positions"].toBool());
    QVERIFY(withPositions["largest_weight_change"].toDouble() > 1e-3);
    const QJsonObject deeply = comparisons[1].toObject();
    QVERIFY(deeply["largest_score_change"].toDouble() < 1e-12);  // the shared words' scores stay
    QCOMPARE(deeply["rows"].toArray().size(), 3);
}

void TestExerciseCli::skipGramRunsTheCoursesSettings()
{
    const QString out = m_dir.filePath(QStringLiteral("skipgram"));
    const CliResult r = runAttnscope({"exercise", "skipgram", "--out", out});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const QJsonObject config = readJson(out + "/metrics.json")["config"].toObject();
    QCOMPARE(config["dim"].toInt(), 16);
    QCOMPARE(config["window"].toInt(), 2);
    QVERIFY(config["whole_window"].toBool() && config["constant_rate"].toBool());
    QCOMPARE(config["noise_exponent"].toDouble(), 0.0);
    QCOMPARE(config["init_std"].toDouble(), 0.1);
    QCOMPARE(config["epochs"].toInt(), 50);
    const QJsonObject answers = readJson(out + "/answers.json");
    const QJsonArray losses = answers["loss_by_epoch"].toArray();
    QCOMPARE(losses.size(), 5);
    QCOMPARE(losses.last().toObject()["epoch"].toInt(), 50);
    QVERIFY(losses.last().toObject()["loss"].toDouble() < losses.first().toObject()["loss"].toDouble());
    QCOMPARE(answers["nearest_neighbours"].toObject()["king"].toArray().size(), 3);
    QVERIFY(QFile::exists(out + "/pca.png"));
}

void TestExerciseCli::charRnnRunsTheCoursesSettings()
{
    const QString out = m_dir.filePath(QStringLiteral("char-rnn"));
    const CliResult r = runAttnscope({"exercise", "char-rnn", "--out", out});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const QJsonObject metrics = readJson(out + "/metrics.json");
    QVERIFY2(metrics["training_config"].toObject()["whole_text"].toBool(), qPrintable(QJsonDocument(metrics).toJson()));
    QCOMPARE(metrics["training_config"].toObject()["optimizer"].toString(), QStringLiteral("sgd"));
    QCOMPARE(metrics["model_config"].toObject()["cell"].toString(), QStringLiteral("rnn"));
    const QJsonObject answers = readJson(out + "/answers.json");
    QCOMPARE(answers["loss_by_epoch"].toArray().size(), 5);
    const QString sample = answers["sample_from_first_letter"].toString();
    QCOMPARE(sample.size(), 61);
    QVERIFY(sample.startsWith(QLatin1Char('h')));
}

void TestExerciseCli::beamsTableTheBundledModel()
{
    const QString out = m_dir.filePath(QStringLiteral("beams"));
    const CliResult r = runAttnscope({"exercise", "beams", "--out", out});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const QJsonObject answers = readJson(out + "/answers.json");
    QCOMPARE(answers["sentences"].toInt(), 1000);
    QCOMPARE(answers["settings"].toArray().size(), 10);
}

ATTNSCOPE_TEST(exercisecli, TestExerciseCli)
#include "tst_exercisecli.moc"
