#include "tests/common/testregistry.h"
#include "engine/charlm/builtintexts.h"
#include "engine/charlm/charinferencenet.h"
#include "engine/charlm/charsampling.h"
#include "engine/charlm/chartrainer.h"
#include "engine/core/plaintext.h"

#include <QtTest>

// The lab's first promise: trained on the 44-character pangram with a fixed seed, the model
// recites it. A trainer that never trains the last window (as a well-known minimal char-RNN does)
// never learns the sentence's end, and fails here.
class TestPangram : public QObject
{
    Q_OBJECT
private slots:
    void pangramRegeneratesExactly_data();
    void pangramRegeneratesExactly();
};

void TestPangram::pangramRegeneratesExactly_data()
{
    QTest::addColumn<int>("cell");
    QTest::addColumn<int>("seqLen");
    // One window of 43 targets; and windows of 16, 16 and 11, so the last one is short.
    QTest::newRow("gru, one window") << int(RecurrentCell::Gru) << 64;
    QTest::newRow("gru, a short last window") << int(RecurrentCell::Gru) << 16;
    QTest::newRow("lstm, a short last window") << int(RecurrentCell::Lstm) << 16;
    QTest::newRow("tanh rnn, one window") << int(RecurrentCell::Rnn) << 64;
}

void TestPangram::pangramRegeneratesExactly()
{
    QFETCH(int, cell);
    QFETCH(int, seqLen);
    const std::string &sentence = builtInShortText();
    const CharText text = buildCharText(sentence, 0.0, seqLen);
    QCOMPARE(text.trainLength, text.length());
    CharTrainingConfig training;
    training.seqLen = seqLen;
    training.batch = 1;
    training.epochs = 300;
    training.seed = 1;
    training.threads = 1;
    CharTrainer trainer(text, CharModelConfig{RecurrentCell(cell), 64, 1, 16}, training);
    const std::vector<CharEpoch> epochs = trainer.train({});
    QCOMPARE(int(epochs.size()), training.epochs);

    const CharInferenceNet net(trainer.weights());
    QCOMPARE(memorisedLength(net, text.ids, 1, text.length()), text.length() - 1);
    SamplingOptions greedy;
    greedy.temperature = 0;
    greedy.prime = U"T";
    greedy.length = int(text.length()) - 1;
    const SampledText recited = sampleText(net, greedy);
    QCOMPARE(QString::fromStdString(encodeUtf8(recited.prime + recited.generated)), QString::fromStdString(sentence));
}

ATTNSCOPE_TEST(pangram, TestPangram)
#include "tst_pangram.moc"
