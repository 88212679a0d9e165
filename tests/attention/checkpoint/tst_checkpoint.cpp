#include "tests/common/testregistry.h"
#include "engine/attention/seq2seqmodel.h"
#include "engine/core/binaryio.h"
#include "tests/common/configtablechecks.h"
#include "tests/common/filebytes.h"
#include "tests/common/oldcheckpointformat.h"

#include <QtTest>

#include <cstring>
#include <fstream>

// Saved models load back exactly; damaged or foreign files give a clear error and never crash.
class TestCheckpoint : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void roundTripGivesIdenticalOutputs();
    void everyFieldRoundTrips();
    void olderFormatsStillLoad_data();
    void olderFormatsStillLoad();
    void truncatedAtEveryTenthFails_data();
    void truncatedAtEveryTenthFails();
    void damagedFilesFail_data();
    void damagedFilesFail();
    void damagedContentFails_data();
    void damagedContentFails();
    void saveIsAtomicAndLeavesNoTemporaryFile();
    void saveToMissingFolderFails();

private:
    std::string write(const std::string &name, const std::string &bytes);
    static std::string read(const std::string &path);
    static std::string withValidHeader(const std::string &payload);
    QTemporaryDir m_dir;
    std::string m_good;
};

namespace {

// A model whose every stored setting is off its default: the model's from a small base, so that
// the weights stay few.
Seq2SeqModel changedModel()
{
    ModelConfig base;
    base.embedSize = 8;
    base.hiddenSize = 12;
    base.layers = 1;
    Seq2SeqModel model(changedConfig(modelConfigFields(), base), Vocabulary({"a", "b", "c"}), 9);
    model.datasetConfig = changedConfig(datasetConfigFields());
    model.datasetConfig.maxLength = 12;  // auto (0) plus 2 would be below the changed minimum length
    model.datasetConfig.words = {"a", "b", "c", "d"};
    model.history = {{1, 2.5, 2.0, 0.25, 3.0, 400.0}, {2, 1.75, 1.5, 0.5, 2.75, 410.5}};
    return model;
}

void compareModels(const Seq2SeqModel &loaded, const Seq2SeqModel &saved)
{
    compareFields(loaded.config(), saved.config(), modelConfigFields());
    compareFields(loaded.datasetConfig, saved.datasetConfig, datasetConfigFields());
    QCOMPARE(loaded.datasetConfig.words, saved.datasetConfig.words);
    QCOMPARE(loaded.vocabulary().words(), saved.vocabulary().words());
    QCOMPARE(loaded.history.size(), saved.history.size());
    for (std::size_t i = 0; i < saved.history.size(); ++i) {
        QCOMPARE(loaded.history[i].epoch, saved.history[i].epoch);
        QCOMPARE(loaded.history[i].samplesPerSecond, saved.history[i].samplesPerSecond);
    }
    const DecodedSentence x = saved.reverse("a b c b"), y = loaded.reverse("a b c b");
    QCOMPARE(y.outputTokens, x.outputTokens);
    QCOMPARE(y.attention, x.attention);
}
}

std::string TestCheckpoint::write(const std::string &name, const std::string &bytes)
{
    const std::string path = m_dir.filePath(QString::fromStdString(name)).toStdString();
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
}

std::string TestCheckpoint::read(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

void TestCheckpoint::initTestCase()
{
    ModelConfig config;
    config.embedSize = 8;
    config.hiddenSize = 12;
    Seq2SeqModel model(config, Vocabulary({"a", "b", "c"}), 9);
    model.datasetConfig.words = {"a", "b", "c"};
    model.history.push_back({1, 2.5, 2.0, 0.25, 3.0, 400.0});
    m_good = m_dir.filePath("good.ckpt").toStdString();
    model.save(m_good);
}

void TestCheckpoint::roundTripGivesIdenticalOutputs()
{
    const Seq2SeqModel a = Seq2SeqModel::load(m_good);
    const std::string again = m_dir.filePath("again.ckpt").toStdString();
    a.save(again);
    const Seq2SeqModel b = Seq2SeqModel::load(again);
    QCOMPARE(read(again), read(m_good));  // byte for byte
    const auto x = a.reverse("a b c b");
    const auto y = b.reverse("a b c b");
    QCOMPARE(x.outputTokens, y.outputTokens);
    QCOMPARE(x.attention, y.attention);
    QCOMPARE(b.config().hiddenSize, 12);
    QCOMPARE(b.vocabulary().words(), (std::vector<std::string>{"<PAD>", "<SOS>", "<EOS>", "<UNK>", "a", "b", "c"}));
    QCOMPARE(b.datasetConfig.words, (std::vector<std::string>{"a", "b", "c"}));
    QCOMPARE(int(b.history.size()), 1);
    QCOMPARE(b.history[0].samplesPerSecond, 400.0);
}

// Every setting the tables hold, and the dataset's words, come back from the file.
void TestCheckpoint::everyFieldRoundTrips()
{
    const Seq2SeqModel model = changedModel();
    checkDiffersFromDefaults(model.config(), modelConfigFields());
    checkDiffersFromDefaults(model.datasetConfig, datasetConfigFields());
    const std::string path = m_dir.filePath("changed.ckpt").toStdString();
    model.save(path);
    compareModels(Seq2SeqModel::load(path), model);
}

void TestCheckpoint::olderFormatsStillLoad_data()
{
    QTest::addColumn<int>("format");
    QTest::addColumn<int>("attention");
    QTest::addColumn<bool>("pointer");
    QTest::newRow("format 1, Bahdanau") << 1 << int(AttentionKind::Bahdanau) << false;
    QTest::newRow("format 2, Luong general") << 2 << int(AttentionKind::LuongGeneral) << false;
    QTest::newRow("format 3, location and the pointer") << 3 << int(AttentionKind::Location) << true;
}

// Files of the formats that wrote the configs field by field open as they were saved.
void TestCheckpoint::olderFormatsStillLoad()
{
    QFETCH(int, format);
    QFETCH(int, attention);
    QFETCH(bool, pointer);
    Seq2SeqModel changed = changedModel();
    ModelConfig config = changed.config();
    config.attention = AttentionKind(attention);
    config.pointer = pointer ? PointerMode::On : PointerMode::Off;
    config.bridge = true;  // the older formats came before the setting: every model had the bridge
    config.cell = RecurrentCell::Gru;  // and GRU cells
    Seq2SeqModel model(config, changed.vocabulary(), 9);
    model.datasetConfig = changed.datasetConfig;
    model.history = changed.history;
    const std::string bytes = oldFormatCheckpoint(model, unsigned(format));
    QCOMPARE(int(bytes[8]), format);
    compareModels(checkpointformat::decode(bytes), model);
}

void TestCheckpoint::truncatedAtEveryTenthFails_data()
{
    QTest::addColumn<int>("tenths");
    for (int i = 0; i < 10; ++i)
        QTest::newRow(qPrintable(QString("%1%").arg(i * 10))) << i;
}

void TestCheckpoint::truncatedAtEveryTenthFails()
{
    QFETCH(int, tenths);
    const std::string bytes = read(m_good);
    const std::string path = write("cut.ckpt", bytes.substr(0, bytes.size() * std::size_t(tenths) / 10));
    QVERIFY_THROWS_EXCEPTION(CheckpointError, Seq2SeqModel::load(path));
}

void TestCheckpoint::damagedFilesFail_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("message");
    QTest::newRow("missing") << "missing" << "cannot open";
    QTest::newRow("empty") << "empty" << "not an AttnScope checkpoint";
    QTest::newRow("random bytes") << "random" << "not an AttnScope checkpoint";
    QTest::newRow("flipped byte") << "flip" << "checksum";
    QTest::newRow("future version") << "future" << "newer AttnScope";
    QTest::newRow("extra bytes") << "extra" << "extra bytes";
    QTest::newRow("directory") << "directory" << "not a regular file";
}

void TestCheckpoint::damagedFilesFail()
{
    QFETCH(QString, kind);
    QFETCH(QString, message);
    std::string bytes = read(m_good);
    std::string path;
    if (kind == "missing") {
        path = m_dir.filePath("nothing-here.ckpt").toStdString();
    } else if (kind == "directory") {
        path = m_dir.path().toStdString();
    } else {
        if (kind == "empty")
            bytes.clear();
        else if (kind == "random")
            for (std::size_t i = 0; i < bytes.size(); ++i)
                bytes[i] = char((i * 2654435761u) >> 13);
        else if (kind == "flip")
            bytes[bytes.size() / 2] ^= 0x10;
        else if (kind == "future")
            bytes[8] = 99;  // the version follows the 8-byte signature
        else if (kind == "extra")
            bytes += "xx";
        path = write("bad.ckpt", bytes);
    }
    try {
        Seq2SeqModel::load(path);
        QFAIL("loading should have failed");
    } catch (const CheckpointError &e) {
        QVERIFY2(QString(e.what()).contains(message), e.what());
    }
}

// The payload behind a correct header, so damage inside it gets past the checksum.
std::string TestCheckpoint::withValidHeader(const std::string &payload)
{
    BinaryWriter header;
    header.u32(checkpointformat::kVersion);
    header.u32(crc32(payload.data(), payload.size()));
    header.i64(std::int64_t(payload.size()));
    return "ATNSCKPT" + header.bytes() + payload;
}

void TestCheckpoint::damagedContentFails_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("message");
    QTest::newRow("another model size") << "hidden" << "in its model";
    QTest::newRow("unknown setting") << "setting" << "the model settings are invalid: unknown setting 'hiddn'";
    QTest::newRow("setting out of range") << "range" << "the model settings are invalid: layers expects";
    QTest::newRow("another vocabulary") << "extra word" << "in its model";
    QTest::newRow("duplicate word") << "duplicate" << "vocabulary is invalid";
    QTest::newRow("word count beyond the file") << "count" << "malformed";
    QTest::newRow("huge model, few weights") << "huge" << "too few for its model settings";
}

void TestCheckpoint::damagedContentFails()
{
    QFETCH(QString, kind);
    QFETCH(QString, message);
    std::string payload = read(m_good).substr(filebytes::kHeaderSize);
    QCOMPARE(withValidHeader(payload), read(m_good));
    const std::string settings = leadingConfigText(payload);  // the model's
    QVERIFY2(settings.find("\nhidden=12\n") != std::string::npos, settings.c_str());
    // Then the vocabulary, a u32 count and <PAD> <SOS> <EOS> <UNK> a b c: four 5-letter words and
    // three 1-letter ones.
    const std::size_t wordsAt = 4 + settings.size();
    const std::size_t lastWord = wordsAt + 4 + 4 * (4 + 5) + 2 * (4 + 1);
    QCOMPARE(payload.substr(lastWord, 5), std::string("\x01\0\0\0c", 5));
    const auto replaced = [&settings](const std::string &from, const std::string &to) {
        std::string s = settings;
        return s.replace(s.find(from), from.size(), to);
    };
    if (kind == "hidden") {
        payload = withLeadingConfigText(payload, replaced("hidden=12", "hidden=16"));  // tensors made for 12
    } else if (kind == "setting") {
        payload = withLeadingConfigText(payload, replaced("hidden=", "hiddn="));
    } else if (kind == "range") {
        payload = withLeadingConfigText(payload, replaced("layers=2", "layers=80"));
    } else if (kind == "extra word") {
        filebytes::put<std::uint32_t>(payload, wordsAt, 8);
        payload.insert(lastWord + 5, std::string("\x01\0\0\0d", 5));
    } else if (kind == "duplicate") {
        payload[lastWord + 4] = 'a';
    } else if (kind == "count") {
        filebytes::put<std::uint32_t>(payload, wordsAt, 0xFFFFFF);
    } else if (kind == "huge") {
        // Built as claimed, this model would need gigabytes; it must be refused before that.
        payload = withLeadingConfigText(
            payload, replaced("embed=8\nhidden=12\ncell=gru\nlayers=2", "embed=4096\nhidden=4096\ncell=gru\nlayers=8"));
    }
    try {
        Seq2SeqModel::load(write("damaged.ckpt", withValidHeader(payload)));
        QFAIL("loading should have failed");
    } catch (const CheckpointError &e) {
        QVERIFY2(QString(e.what()).contains(message), e.what());
    }
}

void TestCheckpoint::saveIsAtomicAndLeavesNoTemporaryFile()
{
    const std::string target = m_dir.filePath("atomic.ckpt").toStdString();
    const Seq2SeqModel model = Seq2SeqModel::load(m_good);
    model.save(target);
    model.save(target);  // replacing an existing file
    QCOMPARE(read(target), read(m_good));
    const QStringList leftovers = QDir(m_dir.path()).entryList({"*.tmp-*"});
    QVERIFY2(leftovers.isEmpty(), qPrintable(leftovers.join(", ")));
}

void TestCheckpoint::saveToMissingFolderFails()
{
    const Seq2SeqModel model = Seq2SeqModel::load(m_good);
    QVERIFY_THROWS_EXCEPTION(CheckpointError, model.save(m_dir.filePath("no/such/folder/x.ckpt").toStdString()));
}

ATTNSCOPE_TEST(checkpoint, TestCheckpoint)
#include "tst_checkpoint.moc"
