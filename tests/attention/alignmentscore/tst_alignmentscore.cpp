#include "tests/common/testregistry.h"
#include "engine/attention/alignmentscore.h"
#include "engine/attention/seq2seqmodel.h"
#include "engine/core/dataset.h"
#include "tests/common/tinymodel.h"

#include <QtTest>

#include <cmath>
#include <stdexcept>

namespace {

// A sentence of `words` source words ("s0 s1 …" and <EOS>) whose outputs are `outputs`, each row
// of `weights` the attention of one output over the words and <EOS>.
DecodedSentence decoded(int words, const QStringList &outputs, const QList<double> &weights)
{
    DecodedSentence s;
    for (int i = 0; i < words; ++i)
        s.sourceTokens.push_back("s" + std::to_string(i));
    s.sourceTokens.push_back("<EOS>");
    s.sourceKnown.assign(s.sourceTokens.size(), true);
    for (const QString &output : outputs)
        s.outputTokens.push_back(output.toStdString());
    s.outputCopied.assign(s.outputTokens.size(), false);
    for (double w : weights)
        s.attention.push_back(float(w));
    return s;
}

// One-hot rows: row r puts all its weight on column columns[r].
QList<double> oneHot(int words, const QList<int> &columns)
{
    QList<double> weights;
    for (int column : columns)
        for (int c = 0; c <= words; ++c)
            weights << (c == column ? 1.0 : 0.0);
    return weights;
}

const QStringList kFourWords = {"w", "w", "w", "w", "<EOS>"};

}

class TestAlignmentScore : public QObject
{
    Q_OBJECT
private slots:
    void handMadeMatrices_data();
    void handMadeMatrices();
    void rightCellsPerRow();
    void sentencesAddUp();
    void nothingToScoreIsNotAShare();
    void bundledModelAlignsAsDecodedOneByOne();
    void modelWithoutAttentionIsRefused();
};

void TestAlignmentScore::handMadeMatrices_data()
{
    QTest::addColumn<int>("task");
    QTest::addColumn<int>("words");
    QTest::addColumn<QStringList>("outputs");
    QTest::addColumn<QList<double>>("weights");
    QTest::addColumn<int>("steps");
    QTest::addColumn<int>("aligned");
    QTest::addColumn<double>("meanWeight");
    const int reverse = int(Task::Reverse);
    const int copy = int(Task::Copy);
    const QList<double> antiDiagonal = oneHot(4, {3, 2, 1, 0, 4});
    const QList<double> diagonal = oneHot(4, {0, 1, 2, 3, 4});
    QTest::newRow("anti-diagonal, reverse") << reverse << 4 << kFourWords << antiDiagonal << 4 << 4 << 1.0;
    QTest::newRow("anti-diagonal, copy") << copy << 4 << kFourWords << antiDiagonal << 4 << 0 << 0.0;
    QTest::newRow("diagonal, copy") << copy << 4 << kFourWords << diagonal << 4 << 4 << 1.0;
    QTest::newRow("diagonal, reverse") << reverse << 4 << kFourWords << diagonal << 4 << 0 << 0.0;
    // The middle word of an odd length lies on both diagonals.
    QTest::newRow("diagonal, reverse, odd length")
        << reverse << 3 << QStringList{"w", "w", "w", "<EOS>"} << oneHot(3, {0, 1, 2, 3}) << 3 << 1 << 1.0 / 3;
    // Every weight equal: the right word ties with all others, which is not aligned.
    QTest::newRow("uniform") << reverse << 4 << kFourWords << QList<double>(25, 0.2) << 4 << 0 << 0.2;
    QList<double> oneWrong = antiDiagonal;
    oneWrong[1 * 5 + 2] = 0.3;  // step 1 must look at s2
    oneWrong[1 * 5 + 0] = 0.7;
    QTest::newRow("one wrong step") << reverse << 4 << kFourWords << oneWrong << 4 << 3 << (3 + 0.3) / 4;
    QList<double> tie = antiDiagonal;
    tie[0 * 5 + 3] = 0.5;  // step 0 must look at s3
    tie[0 * 5 + 1] = 0.5;
    QTest::newRow("tie on the right word") << reverse << 4 << kFourWords << tie << 4 << 3 << (3 + 0.5) / 4;
    QList<double> soft;
    for (int row = 0; row < 5; ++row)
        for (int column = 0; column < 5; ++column)
            soft << (column == (row < 4 ? 3 - row : 4) ? 0.4 : 0.15);
    QTest::newRow("soft but right") << reverse << 4 << kFourWords << soft << 4 << 4 << 0.4;
    // Words past the fourth have no right source word; neither does <EOS>.
    QTest::newRow("output too long") << reverse << 4 << QStringList{"w", "w", "w", "w", "w", "w", "<EOS>"}
                                     << oneHot(4, {3, 2, 1, 0, 0, 0, 4}) << 4 << 4 << 1.0;
    QTest::newRow("output too short") << reverse << 4 << QStringList{"w", "w", "<EOS>"} << oneHot(4, {3, 0, 4}) << 2
                                      << 1 << 0.5;
    QTest::newRow("no <EOS> emitted") << copy << 4 << QStringList{"w", "w", "w", "w", "w"}
                                      << oneHot(4, {0, 1, 2, 3, 3}) << 4 << 4 << 1.0;
}

void TestAlignmentScore::handMadeMatrices()
{
    QFETCH(int, task);
    QFETCH(int, words);
    QFETCH(QStringList, outputs);
    QFETCH(QList<double>, weights);
    QFETCH(int, steps);
    QFETCH(int, aligned);
    QFETCH(double, meanWeight);
    const AlignmentScore score = scoreAlignment(Task(task), decoded(words, outputs, weights));
    QCOMPARE(score.steps, steps);
    QCOMPARE(score.alignedSteps, aligned);
    QCOMPARE(score.accuracy(), double(aligned) / steps);
    QVERIFY2(std::abs(score.meanRightWeight() - meanWeight) < 1e-6,
             qPrintable(QString::number(score.meanRightWeight())));
}

void TestAlignmentScore::rightCellsPerRow()
{
    const DecodedSentence s =
        decoded(4, {"w", "w", "w", "w", "w", "<EOS>"}, oneHot(4, {0, 0, 0, 0, 0, 0}));
    QCOMPARE(rightSourcePositions(Task::Reverse, s), (std::vector<int>{3, 2, 1, 0, -1, -1}));
    QCOMPARE(rightSourcePositions(Task::Copy, s), (std::vector<int>{0, 1, 2, 3, -1, -1}));
    const DecodedSentence early = decoded(4, {"w", "<EOS>"}, oneHot(4, {0, 0}));
    QCOMPARE(rightSourcePositions(Task::Reverse, early), (std::vector<int>{3, -1}));
}

void TestAlignmentScore::sentencesAddUp()
{
    const DecodedSentence right = decoded(4, kFourWords, oneHot(4, {3, 2, 1, 0, 4}));
    const DecodedSentence wrong = decoded(2, {"w", "w", "<EOS>"}, oneHot(2, {0, 1, 2}));
    const AlignmentScore both = scoreAlignment(Task::Reverse, std::vector<DecodedSentence>{right, wrong});
    QCOMPARE(both.steps, 6);
    QCOMPARE(both.alignedSteps, 4);
    QCOMPARE(both.meanRightWeight(), 4.0 / 6);
}

void TestAlignmentScore::nothingToScoreIsNotAShare()
{
    DecodedSentence none = decoded(3, {"w", "w", "w", "<EOS>"}, {});  // a model without attention
    const AlignmentScore score = scoreAlignment(Task::Reverse, none);
    QCOMPARE(score.steps, 0);
    QVERIFY(std::isnan(score.accuracy()));
    QVERIFY(std::isnan(score.meanRightWeight()));
    QCOMPARE(rightSourcePosition(Task::Reverse, 3, 3), -1);
}

// The bundled model reverses 99.9% of its test set; its attention must sit on the mirrored word,
// and the batched measurement must score what decoding one sentence at a time shows.
void TestAlignmentScore::bundledModelAlignsAsDecodedOneByOne()
{
    const Seq2SeqModel model = Seq2SeqModel::load(ATTNSCOPE_SOURCE_DIR "/resources/models/default.ckpt");
    DatasetConfig d = model.datasetConfig;
    d.trainSize = 10;
    d.valSize = 150;
    d.testSize = 10;
    const Dataset data = Dataset::build(d);
    const AlignmentScore measured = measureAlignment(model, data.val, d.task);
    AlignmentScore oneByOne;
    for (const SentencePair &pair : data.val)
        oneByOne += scoreAlignment(d.task, model.decode(pair.source));
    QCOMPARE(measured.steps, oneByOne.steps);
    QCOMPARE(measured.alignedSteps, oneByOne.alignedSteps);
    QVERIFY(std::abs(measured.rightWeight - oneByOne.rightWeight) < 1e-3 * measured.steps);
    QVERIFY2(measured.accuracy() > 0.9, qPrintable(QString::number(measured.accuracy())));
    QVERIFY2(measured.meanRightWeight() > 0.5, qPrintable(QString::number(measured.meanRightWeight())));
    // At least every word of every output up to the reference length was scored.
    QVERIFY(measured.steps >= 0.99 * [&] {
        int words = 0;
        for (const SentencePair &pair : data.val)
            words += int(pair.target.size());
        return words;
    }());
}

void TestAlignmentScore::modelWithoutAttentionIsRefused()
{
    ModelConfig config = tinyModelConfig();
    config.attention = AttentionKind::None;
    const Seq2SeqModel model(config, Vocabulary({"red", "cat"}), 1);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             measureAlignment(model, {{{"red", "cat"}, {"cat", "red"}}}, Task::Reverse));
}

ATTNSCOPE_TEST(alignmentscore, TestAlignmentScore)
#include "tst_alignmentscore.moc"
