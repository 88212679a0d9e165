#include "tests/common/testregistry.h"
#include "engine/attention/seq2seqmodel.h"
#include "engine/charlm/charcheckpoint.h"
#include "engine/core/binaryio.h"
#include "tests/common/configtablechecks.h"
#include "tests/common/randomcharweights.h"

#include <QtTest>

#include <cmath>
#include <cstring>

// Character model checkpoints read back exactly what was written, and every kind of wrong file is
// refused with a message that says what it is.
class TestCharCheckpoint : public QObject
{
    Q_OBJECT
private slots:
    void configTablesAreSound();
    void roundTripsExactly_data();
    void roundTripsExactly();
    void everyFieldRoundTrips();
    void formatOneStillLoads();
    void refusesWhatIsNotACharacterCheckpoint_data();
    void refusesWhatIsNotACharacterCheckpoint();
    void refusesTheAttentionLabsCheckpoint();
    void refusesSizesTheFileCannotHold();
    void refusesToWriteInconsistentWeights();
    void failedSaveLeavesNoFile();
};

namespace {

const std::u32string kCheckpointAlphabet = U"\n !,.?Tabcehst\u00E9\u00FC\u65E5\U0001F600";

CharCheckpoint sampleCheckpoint(RecurrentCell cell, int layers, int embed)
{
    CharModelConfig config;
    config.cell = cell;
    config.hidden = 6;
    config.layers = layers;
    config.embed = embed;
    CharCheckpoint c;
    c.weights = randomCharWeights(config, kCheckpointAlphabet, 17);
    c.weights.outputBias[0] = -0.0f;
    c.weights.outputBias[1] = 1e-40f;  // subnormal
    c.training.seqLen = 33;
    c.training.batch = 7;
    c.training.lr = 3.25e-4;
    c.training.optimizer = CharOptimizer::Adagrad;
    c.training.epochs = 12;
    c.training.clip = 0;
    c.training.val = 0.125;
    c.training.seed = 2147483000;
    c.training.threads = 3;
    for (int e = 1; e <= 3; ++e) {
        CharEpoch epoch;
        epoch.epoch = e;
        epoch.trainBitsPerChar = 4.0 / e;
        epoch.validationBitsPerChar = e == 2 ? 3.1 : std::nan("");
        epoch.seconds = 0.1 * e;
        epoch.charsPerSecond = 123456.789 * e;
        epoch.iteration = 40 * e;
        c.history.push_back(epoch);
    }
    return c;
}

bool sameDouble(double a, double b)
{
    return std::isnan(a) ? std::isnan(b) : a == b;
}

bool sameFloats(const std::vector<float> &a, const std::vector<float> &b)
{
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

void compareCheckpoints(const CharCheckpoint &a, const CharCheckpoint &b)
{
    QCOMPARE(b.weights.config.cell, a.weights.config.cell);
    QCOMPARE(b.weights.config.hidden, a.weights.config.hidden);
    QCOMPARE(b.weights.config.layers, a.weights.config.layers);
    QCOMPARE(b.weights.config.embed, a.weights.config.embed);
    QVERIFY(b.weights.alphabet == a.weights.alphabet);
    QVERIFY(sameFloats(b.weights.embedding, a.weights.embedding));
    QCOMPARE(b.weights.layers.size(), a.weights.layers.size());
    for (std::size_t l = 0; l < a.weights.layers.size(); ++l) {
        const CharLayerWeights &x = a.weights.layers[l], &y = b.weights.layers[l];
        QVERIFY(sameFloats(y.inputWeights, x.inputWeights));
        QVERIFY(sameFloats(y.hiddenWeights, x.hiddenWeights));
        QVERIFY(sameFloats(y.inputBias, x.inputBias));
        QVERIFY(sameFloats(y.hiddenBias, x.hiddenBias));
    }
    QVERIFY(sameFloats(b.weights.outputWeights, a.weights.outputWeights));
    QVERIFY(sameFloats(b.weights.outputBias, a.weights.outputBias));
    QCOMPARE(b.training.seqLen, a.training.seqLen);
    QCOMPARE(b.training.batch, a.training.batch);
    QCOMPARE(b.training.lr, a.training.lr);
    QCOMPARE(b.training.optimizer, a.training.optimizer);
    QCOMPARE(b.training.epochs, a.training.epochs);
    QCOMPARE(b.training.clip, a.training.clip);
    QCOMPARE(b.training.val, a.training.val);
    QCOMPARE(b.training.seed, a.training.seed);
    QCOMPARE(b.training.threads, a.training.threads);
    QCOMPARE(b.history.size(), a.history.size());
    for (std::size_t i = 0; i < a.history.size(); ++i) {
        const CharEpoch &x = a.history[i], &y = b.history[i];
        QCOMPARE(y.epoch, x.epoch);
        QCOMPARE(y.iteration, x.iteration);
        for (auto member : {&CharEpoch::trainBitsPerChar, &CharEpoch::validationBitsPerChar, &CharEpoch::seconds,
                            &CharEpoch::charsPerSecond})
            QVERIFY(sameDouble(y.*member, x.*member));
    }
}

QString refusal(const std::string &bytes)
{
    try {
        charcheckpoint::decode(bytes);
    } catch (const CharCheckpointError &e) {
        return QString::fromUtf8(e.what());
    }
    return "accepted";
}

// `checkpoint` as format 1 wrote it, the configs field by field: the encoder of that version, kept
// to make its files.
std::string formatOneBytes(const CharCheckpoint &checkpoint)
{
    const CharWeights &weights = checkpoint.weights;
    BinaryWriter w;
    w.u32(uint32_t(weights.config.cell));
    for (int v : {weights.config.hidden, weights.config.layers, weights.config.embed})
        w.i64(v);
    w.u32(uint32_t(weights.alphabet.size()));
    for (char32_t c : weights.alphabet)
        w.u32(uint32_t(c));
    w.floatArray(weights.embedding);
    for (const CharLayerWeights &layer : weights.layers)
        for (const std::vector<float> *values :
             {&layer.inputWeights, &layer.hiddenWeights, &layer.inputBias, &layer.hiddenBias})
            w.floatArray(*values);
    w.floatArray(weights.outputWeights);
    w.floatArray(weights.outputBias);
    const CharTrainingConfig &t = checkpoint.training;
    w.i64(t.seqLen);
    w.i64(t.batch);
    w.f64(t.lr);
    w.u32(uint32_t(t.optimizer));
    w.i64(t.epochs);
    w.f64(t.clip);
    w.f64(t.val);
    w.i64(int64_t(t.seed));
    w.i64(t.threads);
    w.u32(uint32_t(checkpoint.history.size()));
    for (const CharEpoch &e : checkpoint.history) {
        w.i64(e.epoch);
        for (double v : {e.trainBitsPerChar, e.validationBitsPerChar, e.seconds, e.charsPerSecond})
            w.f64(v);
        w.i64(e.iteration);
    }
    return signedfile::wrap(charcheckpoint::kSignature, 1, w.bytes());
}

// `bytes` with its payload replaced by `payload` and a header that matches it.
std::string withPayload(const std::string &bytes, const std::string &payload)
{
    BinaryWriter header;
    header.u32(charcheckpoint::kVersion);
    header.u32(crc32(payload.data(), payload.size()));
    header.i64(int64_t(payload.size()));
    return bytes.substr(0, 8) + header.bytes() + payload;
}

constexpr std::size_t kHeader = 24;

}

void TestCharCheckpoint::configTablesAreSound()
{
    checkConfigTable(charModelFields(), /*sharedFields=*/0);
    checkConfigTable(charTrainingFields(), /*sharedFields=*/3);
}

void TestCharCheckpoint::roundTripsExactly_data()
{
    QTest::addColumn<int>("cell");
    QTest::addColumn<int>("layers");
    QTest::addColumn<int>("embed");
    QTest::newRow("rnn, one-hot") << int(RecurrentCell::Rnn) << 1 << 0;
    QTest::newRow("gru, 2 layers, embedded") << int(RecurrentCell::Gru) << 2 << 5;
    QTest::newRow("lstm, 3 layers, one-hot") << int(RecurrentCell::Lstm) << 3 << 0;
}

void TestCharCheckpoint::roundTripsExactly()
{
    QFETCH(int, cell);
    QFETCH(int, layers);
    QFETCH(int, embed);
    const CharCheckpoint original = sampleCheckpoint(RecurrentCell(cell), layers, embed);
    compareCheckpoints(original, charcheckpoint::decode(charcheckpoint::encode(original)));

    QTemporaryDir dir;
    const std::string path = dir.filePath("model.ckpt").toStdString();
    saveCharCheckpoint(path, original);
    compareCheckpoints(original, loadCharCheckpoint(path));
    QCOMPARE(charcheckpoint::encode(loadCharCheckpoint(path)), charcheckpoint::encode(original));
}

// Every setting the tables hold comes back from the file.
void TestCharCheckpoint::everyFieldRoundTrips()
{
    CharModelConfig base;
    base.hidden = 6;
    base.embed = 5;
    CharCheckpoint c = sampleCheckpoint(RecurrentCell::Gru, 1, 0);
    const CharModelConfig model = changedConfig(charModelFields(), base);
    c.weights = randomCharWeights(model, kCheckpointAlphabet, 5);
    c.training = changedConfig(charTrainingFields());
    checkDiffersFromDefaults(c.weights.config, charModelFields());
    checkDiffersFromDefaults(c.training, charTrainingFields());
    const CharCheckpoint back = charcheckpoint::decode(charcheckpoint::encode(c));
    compareFields(back.weights.config, c.weights.config, charModelFields());
    compareFields(back.training, c.training, charTrainingFields());
    compareCheckpoints(c, back);
}

// A file of format 1, which wrote the configs field by field, opens as it was saved.
void TestCharCheckpoint::formatOneStillLoads()
{
    const CharCheckpoint original = sampleCheckpoint(RecurrentCell::Lstm, 2, 3);
    const std::string bytes = formatOneBytes(original);
    QCOMPARE(int(bytes[8]), 1);
    const CharCheckpoint loaded = charcheckpoint::decode(bytes);
    compareFields(loaded.weights.config, original.weights.config, charModelFields());
    compareFields(loaded.training, original.training, charTrainingFields());
    compareCheckpoints(original, loaded);
}

void TestCharCheckpoint::refusesWhatIsNotACharacterCheckpoint_data()
{
    const std::string good = charcheckpoint::encode(sampleCheckpoint(RecurrentCell::Gru, 2, 5));
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("message");
    const auto row = [](const char *name, const std::string &bytes, const char *message) {
        QTest::newRow(name) << QByteArray::fromStdString(bytes) << QString(message);
    };
    row("empty", "", "not a character model checkpoint");
    row("text", "The quick brown fox jumps over the lazy dog.", "not a character model checkpoint");
    row("signature only", good.substr(0, 12), "truncated");
    row("truncated", good.substr(0, good.size() - 9), "truncated");
    row("extra bytes", good + "x", "extra bytes");
    std::string newer = good;
    newer[8] = char(charcheckpoint::kVersion + 1);
    row("newer format", newer, "newer AttnScope (format 3)");
    std::string zero = good;
    zero[8] = 0;
    row("format 0", zero, "format version is invalid");
    std::string damaged = good;
    damaged[kHeader + 100] ^= 0x10;
    row("damaged", damaged, "damaged (checksum mismatch)");
    std::string lastByte = good;
    lastByte.back() ^= 1;
    row("damaged at the end", lastByte, "damaged");
}

void TestCharCheckpoint::refusesWhatIsNotACharacterCheckpoint()
{
    QFETCH(QByteArray, bytes);
    QFETCH(QString, message);
    const QString what = refusal(bytes.toStdString());
    QVERIFY2(what.contains(message), qPrintable(what));

    QTemporaryDir dir;
    const QString path = dir.filePath("bad.ckpt");
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(bytes);
    file.close();
    try {
        loadCharCheckpoint(path.toStdString());
        QFAIL("accepted");
    } catch (const CharCheckpointError &e) {
        QVERIFY2(QString(e.what()).contains(path) && QString(e.what()).contains(message), e.what());
    }
}

void TestCharCheckpoint::refusesTheAttentionLabsCheckpoint()
{
    QTemporaryDir dir;
    const std::string path = dir.filePath("reverse.ckpt").toStdString();
    ModelConfig config;
    config.embedSize = 8;
    config.hiddenSize = 8;
    config.layers = 1;
    Seq2SeqModel(config, Vocabulary({"red", "cat"}), 1).save(path);
    try {
        loadCharCheckpoint(path);
        QFAIL("the attention lab's checkpoint was accepted");
    } catch (const CharCheckpointError &e) {
        QVERIFY2(QString(e.what()).contains("not a character model checkpoint (it is another kind of AttnScope file"),
                 e.what());
    }
}

void TestCharCheckpoint::refusesSizesTheFileCannotHold()
{
    const std::string good = charcheckpoint::encode(sampleCheckpoint(RecurrentCell::Gru, 1, 0));
    std::string payload = good.substr(kHeader);
    // The payload starts with the model's settings, then the alphabet's size (4 bytes) and characters.
    const std::string settings = leadingConfigText(payload);
    QCOMPARE(QString::fromStdString(settings), QStringLiteral("cell=gru\nhidden=6\nlayers=1\nembed=0\n"));
    const std::size_t alphabetAt = 4 + settings.size();
    const auto setU32 = [&](std::string &p, std::size_t offset, uint32_t v) { std::memcpy(&p[offset], &v, 4); };

    const std::string big = withLeadingConfigText(payload, "cell=gru\nhidden=2048\nlayers=4\nembed=0\n");
    QVERIFY2(refusal(withPayload(good, big)).contains("too few weights"), qPrintable(refusal(withPayload(good, big))));
    const std::string absurd = withLeadingConfigText(payload, "cell=gru\nhidden=5000\nlayers=1\nembed=0\n");
    QVERIFY2(refusal(withPayload(good, absurd)).contains("model settings are invalid"),
             qPrintable(refusal(withPayload(good, absurd))));
    std::string alphabet = payload;
    setU32(alphabet, alphabetAt, 0xFFFFFFF0u);
    QVERIFY2(refusal(withPayload(good, alphabet)).contains("malformed"), qPrintable(refusal(withPayload(good, alphabet))));
    const std::string cell = withLeadingConfigText(payload, "cell=tanh\nhidden=6\nlayers=1\nembed=0\n");
    QVERIFY2(refusal(withPayload(good, cell)).contains("cell must be 'rnn', 'gru' or 'lstm', got 'tanh'"),
             qPrintable(refusal(withPayload(good, cell))));
    // The first character made larger than the second: not sorted.
    std::string order = payload;
    setU32(order, alphabetAt + 4, 0x41);
    setU32(order, alphabetAt + 8, 0x40);
    QVERIFY2(refusal(withPayload(good, order)).contains("sorted"), qPrintable(refusal(withPayload(good, order))));
    QVERIFY2(refusal(withPayload(good, payload + "tail")).contains("unexpected bytes"),
             qPrintable(refusal(withPayload(good, payload + "tail"))));
    QVERIFY2(refusal(withPayload(good, payload.substr(0, payload.size() - 4))).contains("malformed"),
             qPrintable(refusal(withPayload(good, payload.substr(0, payload.size() - 4)))));
}

void TestCharCheckpoint::refusesToWriteInconsistentWeights()
{
    CharCheckpoint c = sampleCheckpoint(RecurrentCell::Lstm, 2, 3);
    c.weights.layers[1].hiddenWeights.pop_back();
    QTemporaryDir dir;
    const QString path = dir.filePath("model.ckpt");
    QVERIFY_THROWS_EXCEPTION(CharCheckpointError, saveCharCheckpoint(path.toStdString(), c));
    QVERIFY(!QFile::exists(path));
}

void TestCharCheckpoint::failedSaveLeavesNoFile()
{
    QTemporaryDir dir;
    QVERIFY_THROWS_EXCEPTION(CharCheckpointError, saveCharCheckpoint(dir.filePath("missing/folder/model.ckpt").toStdString(),
                                                                     sampleCheckpoint(RecurrentCell::Rnn, 1, 0)));
    QVERIFY(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden | QDir::NoDotAndDotDot).isEmpty());
    QVERIFY_THROWS_EXCEPTION(CharCheckpointError, loadCharCheckpoint(dir.filePath("absent.ckpt").toStdString()));
}

ATTNSCOPE_TEST(charcheckpoint, TestCharCheckpoint)
#include "tst_charcheckpoint.moc"
