#include "binaryio.h"
#include "seq2seqmodel.h"

#include <QtTest>

#include <fstream>

// Saved models load back exactly; damaged or foreign files give a clear error and never crash.
class TestCheckpoint : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void roundTripGivesIdenticalOutputs();
    void truncatedAtEveryTenthFails_data();
    void truncatedAtEveryTenthFails();
    void damagedFilesFail_data();
    void damagedFilesFail();
    void configThatDoesNotFitTheTensorsFails();
    void saveIsAtomicAndLeavesNoTemporaryFile();
    void saveToMissingFolderFails();

private:
    std::string write(const std::string &name, const std::string &bytes);
    static std::string read(const std::string &path);
    QTemporaryDir m_dir;
    std::string m_good;
};

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

void TestCheckpoint::configThatDoesNotFitTheTensorsFails()
{
    // Claim a hidden size of 16 for tensors made for 12, with a valid checksum.
    std::string bytes = read(m_good);
    const std::size_t payload = 8 + 4 + 4 + 8;
    const std::int64_t hidden = 16;
    std::memcpy(&bytes[payload + 8], &hidden, sizeof hidden);
    const std::uint32_t crc = crc32(bytes.data() + payload, bytes.size() - payload);
    std::memcpy(&bytes[12], &crc, sizeof crc);
    try {
        Seq2SeqModel::load(write("mismatch.ckpt", bytes));
        QFAIL("loading should have failed");
    } catch (const CheckpointError &e) {
        QVERIFY2(QString(e.what()).contains("in its model"), e.what());
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

QTEST_APPLESS_MAIN(TestCheckpoint)
#include "tst_checkpoint.moc"
