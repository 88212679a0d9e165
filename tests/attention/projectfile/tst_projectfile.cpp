#include "tests/common/testregistry.h"
#include "engine/attention/checkpointformat.h"
#include "engine/attention/projectfile.h"
#include "engine/attention/seq2seqmodel.h"
#include "engine/core/binaryio.h"
#include "tests/common/configtablechecks.h"
#include "tests/common/filebytes.h"
#include "tests/common/oldcheckpointformat.h"

#include <QtTest>

#include <cstring>
#include <fstream>
#include <iterator>

// A project file keeps every part of a run and the window; damaged or foreign files are refused
// with a message that says what is wrong.
class TestProjectFile : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void roundTripKeepsEveryField();
    void everySettingRoundTrips();
    void formatOneStillOpens();
    void longTextsRoundTrip();
    void savedFileLoadsBack();
    void corpusIsEmbeddedOrChecked();
    void damagedFilesAreRefused_data();
    void damagedFilesAreRefused();
    void partsThatDoNotFitAreRefused();
    void truncatedAtEveryTenthIsRefused_data();
    void truncatedAtEveryTenthIsRefused();
    void damagedPayloadBehindAValidHeaderIsRefused_data();
    void damagedPayloadBehindAValidHeaderIsRefused();

private:
    std::string write(const std::string &name, const std::string &bytes);
    QTemporaryDir m_dir;
    AttentionProject m_project;
    std::string m_bytes;
};

namespace {

std::string withValidHeader(const std::string &payload, std::uint32_t version = projectfile::kVersion)
{
    BinaryWriter header;
    header.u32(version);
    header.u32(crc32(payload.data(), payload.size()));
    header.i64(std::int64_t(payload.size()));
    return "ATNSPROJ" + header.bytes() + payload;
}

// Every field away from its default, so a field dropped on the way shows.
AttentionProject fullProject()
{
    AttentionProject p;
    p.dataset.task = Task::Copy;
    p.dataset.words = {"a", "b", "c"};
    p.dataset.minLength = 2;
    p.dataset.maxLength = 6;
    p.dataset.trainSize = 321;
    p.dataset.valFraction = 0.25;
    p.dataset.lowercase = false;
    p.dataset.seed = 77;
    p.model.embedSize = 8;
    p.model.hiddenSize = 12;
    p.model.layers = 1;
    p.model.dropout = 0.125;
    p.model.bidirectional = false;
    p.model.attention = AttentionKind::LuongGeneral;
    p.training.learningRate = 3.5e-3;
    p.training.epochs = 3;
    p.training.seed = 1234;
    p.training.threads = 2;
    p.training.teacherForcing = 0.75;
    p.threadsUsed = 2;

    Seq2SeqModel model(p.model, Vocabulary({"a", "b", "c"}), 9);
    model.datasetConfig = p.dataset;
    model.history = {{1, 2.5, 2.0, 0.25, 3.0, 400.0}, {2, 1.5, 1.25, 0.5, 2.5, 410.0}};
    p.weights.add(1, model);
    p.weights.add(2, model);
    p.best = std::make_shared<const Seq2SeqModel>(std::move(model));
    p.alignment = {{1, {10, 4, 3.5}}, {2, {10, 9, 8.25}}};
    ExperimentRecord run;
    run.label = "luong-dot";
    run.model.attention = AttentionKind::LuongDot;
    run.model.hiddenSize = 64;
    run.seed = 5;
    run.history = {{1, 3.0, 2.5, 0.1, 1.0, 100.0}};
    run.testExactMatch = 0.875;
    run.probeByLength = {{3, {8, 10}}, {12, {1, 10}}};
    p.experiments = {run, ExperimentRecord{}};
    p.experimentSeeds = 2;
    p.sentence = "a b c";
    p.selectedRow = 2;
    p.selectedColumn = 1;
    return p;
}

}

std::string TestProjectFile::write(const std::string &name, const std::string &bytes)
{
    const std::string path = m_dir.filePath(QString::fromStdString(name)).toStdString();
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
}

void TestProjectFile::initTestCase()
{
    m_project = fullProject();
    m_bytes = projectfile::encode(m_project);
}

void TestProjectFile::roundTripKeepsEveryField()
{
    const AttentionProject p = projectfile::decode(m_bytes);
    QCOMPARE(projectfile::encode(p), m_bytes);  // nothing lost or changed: the same bytes again

    QCOMPARE(p.dataset.task, Task::Copy);
    QCOMPARE(p.dataset.words, (std::vector<std::string>{"a", "b", "c"}));
    QCOMPARE(p.dataset.trainSize, 321);
    QCOMPARE(p.dataset.valFraction, 0.25);
    QCOMPARE(p.dataset.lowercase, false);
    QCOMPARE(p.dataset.seed, std::uint64_t(77));
    QCOMPARE(p.model.attention, AttentionKind::LuongGeneral);
    QCOMPARE(p.model.dropout, 0.125);
    QCOMPARE(p.model.bidirectional, false);
    QCOMPARE(p.training.learningRate, 3.5e-3);
    QCOMPARE(p.training.seed, std::uint64_t(1234));
    QCOMPARE(p.training.teacherForcing, 0.75);
    QCOMPARE(p.threadsUsed, 2);

    QVERIFY(p.best);
    QCOMPARE(int(p.best->history.size()), 2);
    QCOMPARE(p.best->history[1].valLoss, 1.25);
    const DecodedSentence x = m_project.best->reverse("a b c b");
    const DecodedSentence y = p.best->reverse("a b c b");
    QCOMPARE(y.outputTokens, x.outputTokens);
    QCOMPARE(y.attention, x.attention);
    QCOMPARE(p.weights.epochs(), (std::vector<int>{1, 2}));
    QCOMPARE(p.weights.modelAt(2, *p.best).reverse("a b c b").attention,
             m_project.weights.modelAt(2, *m_project.best).reverse("a b c b").attention);

    QCOMPARE(int(p.alignment.size()), 2);
    QCOMPARE(p.alignment[1].epoch, 2);
    QCOMPARE(p.alignment[1].score.alignedSteps, 9);
    QCOMPARE(p.alignment[1].score.rightWeight, 8.25);

    QCOMPARE(int(p.experiments.size()), 2);
    QCOMPARE(p.experimentSeeds, 2);
    const ExperimentRecord &run = p.experiments[0];
    QCOMPARE(run.label, std::string("luong-dot"));
    QCOMPARE(run.model.attention, AttentionKind::LuongDot);
    QCOMPARE(run.model.hiddenSize, 64);
    QCOMPARE(run.seed, std::uint64_t(5));
    QCOMPARE(int(run.history.size()), 1);
    QCOMPARE(run.history[0].valExactMatch, 0.1);
    QCOMPARE(run.testExactMatch, 0.875);
    QCOMPARE(run.probeByLength.at(12).correct, 1);
    QCOMPARE(run.probeByLength.at(3).total, 10);

    QCOMPARE(p.sentence, std::string("a b c"));
    QCOMPARE(p.selectedRow, 2);
    QCOMPARE(p.selectedColumn, 1);
}

// Every field of every table comes back, in the project's settings and in an experiment's.
void TestProjectFile::everySettingRoundTrips()
{
    AttentionProject p = fullProject();
    p.dataset = changedConfig(datasetConfigFields());
    p.dataset.maxLength = 12;  // auto (0) plus 2 would be below the changed minimum length
    p.dataset.words = {"x", "y"};
    p.model = changedConfig(modelConfigFields());
    p.training = changedConfig(trainingConfigFields());
    p.experiments[1].model = p.model;
    checkDiffersFromDefaults(p.dataset, datasetConfigFields());
    checkDiffersFromDefaults(p.model, modelConfigFields());
    checkDiffersFromDefaults(p.training, trainingConfigFields());
    const AttentionProject back = projectfile::decode(projectfile::encode(p));
    compareFields(back.dataset, p.dataset, datasetConfigFields());
    QCOMPARE(back.dataset.words, p.dataset.words);
    compareFields(back.model, p.model, modelConfigFields());
    compareFields(back.training, p.training, trainingConfigFields());
    compareFields(back.experiments[1].model, p.model, modelConfigFields());
    compareFields(back.experiments[0].model, p.experiments[0].model, modelConfigFields());
}

// A project of format 1 holds its model in a checkpoint of format 1 to 3; it opens as it was saved.
void TestProjectFile::formatOneStillOpens()
{
    const std::string checkpoint = checkpointformat::encode(*m_project.best);
    std::string payload = m_bytes.substr(filebytes::kHeaderSize);
    const std::size_t at = payload.find(checkpoint);
    QVERIFY(at != std::string::npos);
    BinaryWriter old;
    old.string(oldFormatCheckpoint(*m_project.best, 2));
    payload.replace(at - 4, 4 + checkpoint.size(), old.bytes());
    const AttentionProject p = projectfile::decode(withValidHeader(payload, 1));
    compareFields(p.dataset, m_project.dataset, datasetConfigFields());
    compareFields(p.model, m_project.model, modelConfigFields());
    compareFields(p.training, m_project.training, trainingConfigFields());
    QCOMPARE(p.best->config().attention, AttentionKind::LuongGeneral);
    QCOMPARE(p.best->reverse("a b c b").attention, m_project.best->reverse("a b c b").attention);
    QCOMPARE(p.weights.epochs(), (std::vector<int>{1, 2}));
    QCOMPARE(p.sentence, m_project.sentence);
}

// Whatever the window lets one type is read back: a project that saves must open.
void TestProjectFile::longTextsRoundTrip()
{
    AttentionProject p = fullProject();
    p.sentence = std::string(200000, 'a');
    p.experiments[0].label = std::string(10000, 'b');
    const AttentionProject back = projectfile::decode(projectfile::encode(p));
    QCOMPARE(back.sentence, p.sentence);
    QCOMPARE(back.experiments[0].label, p.experiments[0].label);
}

void TestProjectFile::savedFileLoadsBack()
{
    const std::string path = m_dir.filePath("run.attnscope").toStdString();
    projectfile::save(m_project, path);
    std::ifstream in(path, std::ios::binary);
    const std::string written((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    QCOMPARE(written, m_bytes);  // written piece by piece, the bytes encode() gives
    QCOMPARE(projectfile::encode(projectfile::load(path)), m_bytes);
    QVERIFY_THROWS_EXCEPTION(ProjectError,
                             projectfile::save(m_project, m_dir.filePath("no/such/folder/x.attnscope").toStdString()));
}

void TestProjectFile::corpusIsEmbeddedOrChecked()
{
    const std::string corpus = write("corpus.txt", "the cat sat\nthe dog ran\n");
    AttentionProject p = fullProject();
    p.dataset.corpusPath = corpus;

    p.corpus = projectfile::copyCorpus(corpus, /*embed=*/true);
    QVERIFY(p.corpus.embedded);
    QCOMPARE(p.corpus.text, std::string("the cat sat\nthe dog ran\n"));
    AttentionProject back = projectfile::decode(projectfile::encode(p));
    QCOMPARE(back.corpus.text, p.corpus.text);
    QCOMPARE(projectfile::corpusFileProblem(back), std::string());

    p.corpus = projectfile::copyCorpus(corpus, /*embed=*/false);
    QVERIFY(!p.corpus.embedded);
    QVERIFY(p.corpus.text.empty());
    back = projectfile::decode(projectfile::encode(p));
    QCOMPARE(back.corpus.bytes, std::uint64_t(24));
    QCOMPARE(projectfile::corpusFileProblem(back), std::string());

    write("corpus.txt", "the cat sat\nthe dog ran!\n");
    QVERIFY(QString::fromStdString(projectfile::corpusFileProblem(back)).contains("has changed"));
    QFile::remove(QString::fromStdString(corpus));
    QVERIFY(QString::fromStdString(projectfile::corpusFileProblem(back)).contains("is missing"));
    QVERIFY_THROWS_EXCEPTION(ProjectError, projectfile::copyCorpus(corpus, true));
}

void TestProjectFile::damagedFilesAreRefused_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("message");
    QTest::newRow("missing") << "missing" << "cannot open";
    QTest::newRow("empty") << "empty" << "not an AttnScope project";
    QTest::newRow("text file") << "text" << "not an AttnScope project";
    QTest::newRow("a checkpoint") << "checkpoint" << "model checkpoint, not a project";
    QTest::newRow("newer version") << "future" << "newer AttnScope";
    QTest::newRow("version 0") << "zero" << "version is invalid";
    QTest::newRow("damaged checksum") << "crc" << "checksum";
    QTest::newRow("byte flipped at 1/3") << "flip3" << "checksum";
    QTest::newRow("byte flipped at 2/3") << "flip2" << "checksum";
    QTest::newRow("last byte flipped") << "flipEnd" << "checksum";
    QTest::newRow("extra bytes") << "extra" << "extra bytes";
    QTest::newRow("length damaged") << "length" << "truncated";
}

void TestProjectFile::damagedFilesAreRefused()
{
    QFETCH(QString, kind);
    QFETCH(QString, message);
    std::string bytes = m_bytes;
    if (kind == "empty")
        bytes.clear();
    else if (kind == "text")
        bytes = "dataset=generated\nthis is not a project\n";
    else if (kind == "checkpoint")
        bytes = checkpointformat::encode(*m_project.best);
    else if (kind == "future")
        filebytes::put<std::uint32_t>(bytes, 8, projectfile::kVersion + 1);
    else if (kind == "zero")
        filebytes::put<std::uint32_t>(bytes, 8, 0);
    else if (kind == "crc")
        bytes[12] ^= 0x01;
    else if (kind == "flip3")
        bytes[bytes.size() / 3] ^= 0x20;
    else if (kind == "flip2")
        bytes[bytes.size() * 2 / 3] ^= 0x20;
    else if (kind == "flipEnd")
        bytes.back() ^= 0x01;
    else if (kind == "extra")
        bytes += "xx";
    else if (kind == "length")
        filebytes::put<std::int64_t>(bytes, 16, std::int64_t(1) << 40);
    const std::string path = kind == "missing" ? m_dir.filePath("nothing.attnscope").toStdString()
                                               : write("bad.attnscope", bytes);
    try {
        projectfile::load(path);
        QFAIL("opening should have failed");
    } catch (const ProjectError &e) {
        QVERIFY2(QString(e.what()).contains(message), e.what());
    }
}

void TestProjectFile::partsThatDoNotFitAreRefused()
{
    // Well-formed bytes whose parts disagree: weights of a model of another shape.
    AttentionProject other = m_project;
    ModelConfig wider = other.model;
    wider.hiddenSize += 4;
    other.weights.clear();
    other.weights.add(1, Seq2SeqModel(wider, Vocabulary({"a", "b", "c"}), 9));
    try {
        projectfile::decode(projectfile::encode(other));
        QFAIL("a history of another model should have been refused");
    } catch (const ProjectError &e) {
        QVERIFY2(QString(e.what()).contains("does not fit its model"), e.what());
    }

    AttentionProject seeds = m_project;
    seeds.experimentSeeds = projectfile::kMaxExperimentSeeds + 1;
    try {
        projectfile::decode(projectfile::encode(seeds));
        QFAIL("seeds out of range should have been refused");
    } catch (const ProjectError &e) {
        QVERIFY2(QString(e.what()).contains("seeds per configuration"), e.what());
    }
}

void TestProjectFile::truncatedAtEveryTenthIsRefused_data()
{
    QTest::addColumn<int>("tenths");
    for (int i = 0; i < 10; ++i)
        QTest::newRow(qPrintable(QString("%1%").arg(i * 10))) << i;
}

void TestProjectFile::truncatedAtEveryTenthIsRefused()
{
    QFETCH(int, tenths);
    QVERIFY_THROWS_EXCEPTION(ProjectError,
                             projectfile::decode(m_bytes.substr(0, m_bytes.size() * std::size_t(tenths) / 10)));
}

void TestProjectFile::damagedPayloadBehindAValidHeaderIsRefused_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("message");
    QTest::newRow("settings text") << "settings" << "dataset settings are invalid";
    QTest::newRow("count beyond the file") << "count" << "malformed";
    QTest::newRow("payload cut short") << "cut" << "malformed";
    QTest::newRow("model inside damaged") << "model" << "model is damaged";
    QTest::newRow("trailing bytes") << "trailing" << "unexpected bytes";
}

void TestProjectFile::damagedPayloadBehindAValidHeaderIsRefused()
{
    QFETCH(QString, kind);
    QFETCH(QString, message);
    std::string payload = m_bytes.substr(filebytes::kHeaderSize);
    QCOMPARE(withValidHeader(payload), m_bytes);
    // The payload opens with the dataset settings as a length-prefixed "key=value" text.
    const std::uint32_t settingsLength = [&] {
        std::uint32_t n;
        std::memcpy(&n, payload.data(), sizeof n);
        return n;
    }();
    QCOMPARE(payload.substr(4, 5), std::string("task="));
    if (kind == "settings") {
        payload.replace(4, 5, "tusk=");
    } else if (kind == "count") {
        filebytes::put<std::uint32_t>(payload, 4 + settingsLength, 0xFFFFFFFF);  // the word count
    } else if (kind == "cut") {
        payload.resize(payload.size() / 2);
    } else if (kind == "model") {
        const std::size_t at = payload.find("ATNSCKPT");
        QVERIFY(at != std::string::npos);
        payload[at + 30] ^= 0x40;  // inside the checkpoint, past its header: its checksum fails
    } else if (kind == "trailing") {
        payload += "zz";
    }
    try {
        projectfile::decode(withValidHeader(payload));
        QFAIL("decoding should have failed");
    } catch (const ProjectError &e) {
        QVERIFY2(QString(e.what()).contains(message), e.what());
    }
}

ATTNSCOPE_TEST(projectfile, TestProjectFile)
#include "tst_projectfile.moc"
