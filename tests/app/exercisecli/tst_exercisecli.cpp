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

// `attnscope exercise`: every lab's exercises listed, each runnable one run with the course's
// settings into answers.json, and the ones AttnScope cannot run yet refused with the reason.
class TestExerciseCli : public QObject
{
    Q_OBJECT
private slots:
    void listNamesEveryExercise();
    void badUsageExitsWithTwo_data();
    void badUsageExitsWithTwo();
    void anExerciseNotRunnableYetSaysWhatIsMissing();
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
    int exercises = 0, notYet = 0;
    for (const LabModule &module : labModules())
        for (const Exercise &exercise : module.exercises) {
            QVERIFY2(r.out.contains(QString::fromStdString(exercise.name) + "  [" + module.info.name + "]"),
                     qPrintable(r.out));
            ++exercises;
            notYet += !exercise.missing.empty();
            QVERIFY(exercise.missing.empty() == bool(exercise.run));
        }
    QCOMPARE(exercises, 8);  // the course's, as issue 35 lists them
    QCOMPARE(int(r.out.count(QStringLiteral("Not runnable yet: "))), notYet);
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

void TestExerciseCli::anExerciseNotRunnableYetSaysWhatIsMissing()
{
    const QString out = m_dir.filePath(QStringLiteral("digits"));
    const CliResult r = runAttnscope({"exercise", "digits", "--out", out});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains(QStringLiteral("tanh RNN cell")), qPrintable(r.err));
    QVERIFY(!QFile::exists(out + "/answers.json"));
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
