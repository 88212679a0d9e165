#include "tests/common/testregistry.h"
#include "tests/common/tinytransformer.h"
#include "engine/core/binaryio.h"
#include "engine/transformer/transformercheckpoint.h"
#include "tests/common/configtablechecks.h"
#include "tests/common/filebytes.h"

#include <QtTest>

#include <fstream>

namespace {

// A small model, so that the file is a few thousand bytes and every cut of it can be tried.
TransformerConfig smallConfig()
{
    return tinyTransformer(1, 2, 10, 12);
}

const Vocabulary &smallVocabulary()
{
    static const Vocabulary vocabulary({"a", "b", "c"});
    return vocabulary;
}

// Two epochs whose every figure differs from the other's and from zero.
std::vector<EpochStats> someHistory()
{
    return {{1, 2.5, 2.0, 0.25, 3.0, 400.0, 3e-3, 1.5}, {2, 1.75, 1.5, 0.5, 2.75, 410.5, 1.8e-3, 0.75}};
}

// Every parameter of `loaded` is the one of `saved` with its name, shape and values, bit for bit.
void compareParameters(const TransformerModel &loaded, const TransformerModel &saved)
{
    const std::vector<NamedTensor> a = loaded.parameters(), b = saved.parameters();
    QCOMPARE(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
        QCOMPARE(a[i].name, b[i].name);
        QCOMPARE(a[i].shape, b[i].shape);
        QVERIFY2(a[i].values == b[i].values, a[i].name.c_str());
    }
}

void compareAttention(const LayeredAttention &a, const LayeredAttention &b)
{
    QCOMPARE(a.rows, b.rows);
    QCOMPARE(a.columns, b.columns);
    QCOMPARE(a.weights, b.weights);
}

void compareModels(const TransformerModel &loaded, const TransformerModel &saved)
{
    compareFields(loaded.config(), saved.config(), transformerConfigFields());
    QCOMPARE(loaded.vocabulary().words(), saved.vocabulary().words());
    QCOMPARE(int(loaded.task()), int(saved.task()));
    QCOMPARE(loaded.history.size(), saved.history.size());
    for (std::size_t i = 0; i < saved.history.size(); ++i) {
        const EpochStats &x = loaded.history[i], &y = saved.history[i];
        QCOMPARE(x.epoch, y.epoch);
        for (auto member : {&EpochStats::trainLoss, &EpochStats::valLoss, &EpochStats::valExactMatch,
                            &EpochStats::seconds, &EpochStats::samplesPerSecond, &EpochStats::learningRate,
                            &EpochStats::gradientNorm})
            QCOMPARE(x.*member, y.*member);
    }
    compareParameters(loaded, saved);
    const std::vector<std::string> words = {"a", "b", "c", "b", "zebra"};
    const TransformerOutput x = loaded.decode(words), y = saved.decode(words);
    QCOMPARE(x.sourceTokens, y.sourceTokens);
    QCOMPARE(x.outputTokens, y.outputTokens);
    compareAttention(x.encoderSelf, y.encoderSelf);
    compareAttention(x.decoderSelf, y.decoderSelf);
    compareAttention(x.cross, y.cross);
}

// `payload` behind a correct header, so damage inside it gets past the length and the checksum.
std::string withValidHeader(const std::string &payload)
{
    return signedfile::wrap(transformercheckpoint::kSignature, transformercheckpoint::kVersion, payload);
}

std::string replacedOnce(std::string text, const std::string &from, const std::string &to)
{
    const std::size_t at = text.find(from);
    if (at == std::string::npos)
        throw std::logic_error("'" + from + "' is not in the text");
    return text.replace(at, from.size(), to);
}

// A length-prefixed string as BinaryWriter writes it.
std::string record(const std::string &text)
{
    BinaryWriter w;
    w.string(text);
    return w.bytes();
}

}  // namespace

// Saved Transformers load back exactly, every setting kept; damaged, cut, foreign or newer files
// give a clear error and never crash, and nothing is built before the whole file checks out.
class TestTransformerCheckpoint : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void parameterCountFollowsFromTheSettings_data();
    void parameterCountFollowsFromTheSettings();
    void roundTripDecodesIdentically();
    void everyFieldRoundTrips();
    void truncatedFilesFail();
    void cutPayloadBehindAValidHeaderFails();
    void damagedFilesFail_data();
    void damagedFilesFail();
    void damagedContentFails_data();
    void damagedContentFails();
    void saveIsAtomicAndLeavesNoTemporaryFile();
    void saveToMissingFolderFails();

private:
    std::string path(const std::string &name) const { return m_dir.filePath(QString::fromStdString(name)).toStdString(); }
    std::string write(const std::string &name, const std::string &bytes) const;
    static std::string read(const std::string &file);
    // What loading `bytes` says; empty when it loads.
    std::string loadError(const std::string &bytes) const;

    QTemporaryDir m_dir;
    std::string m_good;
    std::unique_ptr<TransformerModel> m_model;
    DatasetConfig m_dataset;
    TransformerTrainingConfig m_training;
};

std::string TestTransformerCheckpoint::write(const std::string &name, const std::string &bytes) const
{
    const std::string file = path(name);
    std::ofstream(file, std::ios::binary) << bytes;
    return file;
}

std::string TestTransformerCheckpoint::read(const std::string &file)
{
    std::ifstream in(file, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

std::string TestTransformerCheckpoint::loadError(const std::string &bytes) const
{
    try {
        loadTransformerCheckpoint(write("damaged.ckpt", bytes));
    } catch (const TransformerCheckpointError &e) {
        return e.what();
    }
    return {};
}

void TestTransformerCheckpoint::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_model = std::make_unique<TransformerModel>(smallConfig(), smallVocabulary(), Task::Reverse, 7);
    m_model->history = someHistory();
    m_dataset.words = {"a", "b", "c"};
    m_training.epochs = 3;
    m_good = path("good.ckpt");
    saveTransformerCheckpoint(m_good, *m_model, m_dataset, m_training);
}

void TestTransformerCheckpoint::parameterCountFollowsFromTheSettings_data()
{
    QTest::addColumn<int>("positions");
    QTest::addColumn<bool>("preNorm");
    QTest::addColumn<int>("layers");
    QTest::newRow("sinusoidal, pre-LN, 1 layer") << int(PositionEncoding::Sinusoidal) << true << 1;
    QTest::newRow("learned, pre-LN, 2 layers") << int(PositionEncoding::Learned) << true << 2;
    QTest::newRow("sinusoidal, post-LN, 3 layers") << int(PositionEncoding::Sinusoidal) << false << 3;
    QTest::newRow("learned, post-LN, 1 layer") << int(PositionEncoding::Learned) << false << 1;
}

// The count the loader checks a file against before building anything is the network's own.
void TestTransformerCheckpoint::parameterCountFollowsFromTheSettings()
{
    QFETCH(int, positions);
    QFETCH(bool, preNorm);
    QFETCH(int, layers);
    TransformerConfig config = smallConfig();
    config.positions = PositionEncoding(positions);
    config.preNorm = preNorm;
    config.layers = layers;
    config.maxPositions = 40;
    const TransformerModel model(config, smallVocabulary(), Task::Reverse, 1);
    QCOMPARE(transformerParameterCount(config, smallVocabulary().size()), model.parameterCount());
}

void TestTransformerCheckpoint::roundTripDecodesIdentically()
{
    const TransformerCheckpoint loaded = loadTransformerCheckpoint(m_good);
    compareModels(loaded.model, *m_model);
    compareFields(loaded.dataset, m_dataset, datasetConfigFields());
    QCOMPARE(loaded.dataset.words, m_dataset.words);
    compareFields(loaded.training, m_training, transformerTrainingConfigFields());
    // Saved again, byte for byte the same file.
    const std::string again = path("again.ckpt");
    saveTransformerCheckpoint(again, loaded.model, loaded.dataset, loaded.training);
    QCOMPARE(read(again), read(m_good));
}

// Every setting of the three tables, the words and every figure of the history come back.
void TestTransformerCheckpoint::everyFieldRoundTrips()
{
    // Each field one step up from a base whose heads and width stay a multiple: 6 heads, width 18.
    TransformerConfig base = smallConfig();
    base.heads = 4;
    base.modelSize = 16;
    const TransformerConfig config = changedConfig(transformerConfigFields(), base);
    checkDiffersFromDefaults(config, transformerConfigFields());
    QCOMPARE(QString::fromStdString(validate(config)), QString());
    DatasetConfig dataset = changedConfig(datasetConfigFields());
    dataset.maxLength = 12;  // auto (0) plus 2 would be below the changed minimum length
    dataset.words = {"x", "y"};
    checkDiffersFromDefaults(dataset, datasetConfigFields());
    const TransformerTrainingConfig training = changedConfig(transformerTrainingConfigFields());
    checkDiffersFromDefaults(training, transformerTrainingConfigFields());

    TransformerModel model(config, Vocabulary({"x", "y", "z"}), dataset.task, 3);
    model.history = someHistory();
    const std::string file = path("changed.ckpt");
    saveTransformerCheckpoint(file, model, dataset, training);
    const TransformerCheckpoint loaded = loadTransformerCheckpoint(file);
    compareModels(loaded.model, model);
    compareFields(loaded.dataset, dataset, datasetConfigFields());
    QCOMPARE(loaded.dataset.words, dataset.words);
    compareFields(loaded.training, training, transformerTrainingConfigFields());
}

// Cut anywhere, the file is refused: inside the signature as not a checkpoint, inside the header
// as shorter than it, after it as shorter than the header says.
void TestTransformerCheckpoint::truncatedFilesFail()
{
    const std::string bytes = read(m_good);
    for (std::size_t size = 0; size < bytes.size(); size += size < 64 ? 1 : 37) {
        const QString error = QString::fromStdString(loadError(bytes.substr(0, size)));
        const char *expected = size < sizeof(signedfile::Signature) ? "not a Transformer checkpoint"
                               : size < filebytes::kHeaderSize      ? "shorter than its header"
                                                                    : "is truncated or has extra bytes";
        QVERIFY2(error.contains(QString::fromLatin1(expected)), qPrintable(QString::number(size) + ": " + error));
    }
}

// The payload cut at every byte, behind a header that fits it: the reader never reads past the end.
void TestTransformerCheckpoint::cutPayloadBehindAValidHeaderFails()
{
    const std::string payload = read(m_good).substr(filebytes::kHeaderSize);
    for (std::size_t size = 0; size < payload.size(); ++size) {
        try {
            transformercheckpoint::decode(withValidHeader(payload.substr(0, size)));
            QFAIL(qPrintable(QStringLiteral("a payload of %1 of %2 bytes loaded").arg(size).arg(payload.size())));
        } catch (const TransformerCheckpointError &e) {
            QVERIFY2(QString(e.what()).contains("malformed"), e.what());
        }
    }
}

void TestTransformerCheckpoint::damagedFilesFail_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("message");
    QTest::newRow("missing") << "missing" << "cannot open";
    QTest::newRow("directory") << "directory" << "not a regular file";
    QTest::newRow("empty") << "empty" << "not a Transformer checkpoint (the file does not start with its signature)";
    QTest::newRow("random bytes") << "random" << "not a Transformer checkpoint (the file does not start";
    QTest::newRow("another AttnScope file") << "attention" << "not a Transformer checkpoint (it is another kind of AttnScope file";
    QTest::newRow("flipped byte") << "flip" << "damaged (checksum mismatch)";
    QTest::newRow("newer version") << "future" << "written by a newer AttnScope (format 2); this version reads format 1";
    QTest::newRow("version 0") << "zero" << "format version is invalid";
    QTest::newRow("extra bytes") << "extra" << "truncated or has extra bytes";
}

void TestTransformerCheckpoint::damagedFilesFail()
{
    QFETCH(QString, kind);
    QFETCH(QString, message);
    std::string bytes = read(m_good);
    std::string file;
    if (kind == "missing") {
        file = path("nothing-here.ckpt");
    } else if (kind == "directory") {
        file = m_dir.path().toStdString();
    } else {
        if (kind == "empty")
            bytes.clear();
        else if (kind == "random")
            for (std::size_t i = 0; i < bytes.size(); ++i)
                bytes[i] = char((i * 2654435761u) >> 13);
        else if (kind == "attention")
            bytes.replace(0, 8, "ATNSCKPT");  // the attention lab's checkpoint signature
        else if (kind == "flip")
            bytes[bytes.size() / 2] ^= 0x10;
        else if (kind == "future")
            filebytes::put<std::uint32_t>(bytes, 8, transformercheckpoint::kVersion + 1);
        else if (kind == "zero")
            filebytes::put<std::uint32_t>(bytes, 8, 0);
        else if (kind == "extra")
            bytes += "xx";
        file = write("bad.ckpt", bytes);
    }
    try {
        loadTransformerCheckpoint(file);
        QFAIL("loading should have failed");
    } catch (const TransformerCheckpointError &e) {
        QVERIFY2(QString(e.what()).contains(message), e.what());
        if (kind != "missing" && kind != "directory")
            QVERIFY2(QString(e.what()).startsWith(QStringLiteral("cannot load '%1': ").arg(QString::fromStdString(file))),
                     e.what());
    }
}

void TestTransformerCheckpoint::damagedContentFails_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("message");
    QTest::newRow("another model width") << "width" << "weights; its settings and vocabulary make";
    QTest::newRow("unknown setting") << "setting" << "the model settings are invalid: unknown setting 'headz'";
    QTest::newRow("setting out of range") << "range" << "the model settings are invalid: layers expects";
    QTest::newRow("width not a multiple of heads")
        << "heads" << "model settings are invalid: model width must be a multiple of the number of heads";
    QTest::newRow("no specials") << "specials" << "the checkpoint's vocabulary is invalid";
    QTest::newRow("duplicate word") << "duplicate" << "the checkpoint's vocabulary is invalid";
    QTest::newRow("word count beyond the file") << "count" << "malformed";
    QTest::newRow("unknown task") << "task" << "the checkpoint's task 'sort' is unknown";
    QTest::newRow("task not the data's") << "copy" << "model learns to copy but its data asks to reverse";
    QTest::newRow("training setting out of range") << "training" << "the training settings are invalid: lr expects";
    QTest::newRow("huge model, few weights") << "huge" << "weights; its settings and vocabulary make";
    QTest::newRow("tensor renamed") << "renamed" << "there is no tensor 'output.weight'";
    QTest::newRow("tensor transposed") << "transposed" << "tensor 'output.weight' is [10x7] but the model's is [7x10]";
    QTest::newRow("tensor of absurd size") << "absurd" << "malformed: tensor 'output.weight' has a size out of range";
    QTest::newRow("bytes after the tensors") << "after" << "malformed: unexpected bytes after the last tensor";
}

// Damage behind a valid header: each part of the payload is checked on its own terms.
void TestTransformerCheckpoint::damagedContentFails()
{
    QFETCH(QString, kind);
    QFETCH(QString, message);
    std::string payload = read(m_good).substr(filebytes::kHeaderSize);
    QCOMPARE(withValidHeader(payload), read(m_good));
    const std::string settings = leadingConfigText(payload);  // the model's
    QVERIFY2(settings.find("\nd-model=10\n") != std::string::npos, settings.c_str());
    const std::string outputWeight = record("output.weight");
    const std::size_t outputAt = payload.find(outputWeight);
    QVERIFY(outputAt != std::string::npos);
    const std::size_t outputShapeAt = outputAt + outputWeight.size() + 4;  // after its name and dimension count
    if (kind == "width")
        payload = withLeadingConfigText(payload, replacedOnce(settings, "d-model=10", "d-model=12"));
    else if (kind == "setting")
        payload = withLeadingConfigText(payload, replacedOnce(settings, "heads=", "headz="));
    else if (kind == "range")
        payload = withLeadingConfigText(payload, replacedOnce(settings, "layers=1", "layers=80"));
    else if (kind == "heads")
        payload = withLeadingConfigText(payload, replacedOnce(settings, "heads=2", "heads=4"));
    else if (kind == "specials")
        payload = replacedOnce(payload, record("<PAD>"), record("<pad>"));
    else if (kind == "duplicate")
        payload = replacedOnce(payload, record("c"), record("a"));
    else if (kind == "count")
        filebytes::put<std::uint32_t>(payload, 4 + settings.size(), 0xFFFFFF);
    else if (kind == "task")
        payload = replacedOnce(payload, record("reverse"), record("sort"));
    else if (kind == "copy")
        payload = replacedOnce(payload, record("reverse"), record("copy"));
    else if (kind == "training")
        payload = replacedOnce(payload, "lr=0.003\n", "lr=30000\n");  // as long: the record's length holds
    else if (kind == "huge")  // built as claimed, it would need gigabytes: refused before that
        payload = withLeadingConfigText(
            payload, replacedOnce(replacedOnce(settings, "d-model=10", "d-model=1024"), "layers=1", "layers=6"));
    else if (kind == "renamed")
        payload = replacedOnce(payload, outputWeight, record("output.weighs"));
    else if (kind == "transposed") {
        filebytes::put<std::int64_t>(payload, outputShapeAt, 10);
        filebytes::put<std::int64_t>(payload, outputShapeAt + 8, 7);
    } else if (kind == "absurd")
        filebytes::put<std::int64_t>(payload, outputShapeAt, std::int64_t(1) << 40);
    else if (kind == "after")
        payload += std::string(4, '\0');
    const std::string error = loadError(withValidHeader(payload));
    QVERIFY2(QString::fromStdString(error).contains(message), error.c_str());
}

void TestTransformerCheckpoint::saveIsAtomicAndLeavesNoTemporaryFile()
{
    const std::string target = path("atomic.ckpt");
    saveTransformerCheckpoint(target, *m_model, m_dataset, m_training);
    saveTransformerCheckpoint(target, *m_model, m_dataset, m_training);  // replacing an existing file
    QCOMPARE(read(target), read(m_good));
    const QStringList leftovers = QDir(m_dir.path()).entryList({"*.tmp-*"});
    QVERIFY2(leftovers.isEmpty(), qPrintable(leftovers.join(", ")));
}

void TestTransformerCheckpoint::saveToMissingFolderFails()
{
    QVERIFY_THROWS_EXCEPTION(TransformerCheckpointError,
                             saveTransformerCheckpoint(path("no/such/folder/x.ckpt"), *m_model, m_dataset, m_training));
}

ATTNSCOPE_TEST(transformercheckpoint, TestTransformerCheckpoint)
#include "tst_transformercheckpoint.moc"
