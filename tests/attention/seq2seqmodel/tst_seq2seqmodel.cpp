#include "tests/common/testregistry.h"
#include "engine/attention/evaluation.h"
#include "engine/core/tokenizer.h"
#include "tests/common/tinymodel.h"

#include <QtTest>

// Decoding through the public model: batch equals one-at-a-time, unknown words are copied
// through attention, and odd input is handled.
class TestSeq2SeqModel : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void batchedEqualsOneAtATime();
    void batchedEvaluationKeepsDataOrder();
    void unknownWordIsCopiedFromAttendedSource_data();
    void unknownWordIsCopiedFromAttendedSource();
    void replacementCanBeTurnedOff();
    void attentionRowsAreDistributions();
    void oddInput_data();
    void oddInput();
    void upperCaseReadsAsLowerCase();
    void cloneIsIndependentAndEqual();

private:
    std::unique_ptr<Seq2SeqModel> m_model;
    Dataset m_data;
};

void TestSeq2SeqModel::initTestCase()
{
    m_data = Dataset::build(tinyDataset());
    m_model = std::make_unique<Seq2SeqModel>(tinyModelConfig(), Vocabulary::build(m_data.train), 1);
    m_model->datasetConfig = tinyDataset();
    Trainer(*m_model, m_data, tinyTraining()).run();
}

void TestSeq2SeqModel::batchedEqualsOneAtATime()
{
    std::vector<std::vector<std::string>> sources;
    for (const auto &p : m_data.test)
        sources.push_back(p.source);
    const auto batched = m_model->decodeBatch(sources);
    QCOMPARE(batched.size(), sources.size());
    for (std::size_t i = 0; i < sources.size(); ++i) {
        const DecodedSentence alone = m_model->decode(sources[i]);
        QCOMPARE(batched[i].outputTokens, alone.outputTokens);
        QCOMPARE(batched[i].attention.size(), alone.attention.size());
        for (std::size_t k = 0; k < alone.attention.size(); ++k)
            QVERIFY(std::abs(batched[i].attention[k] - alone.attention[k]) < 1e-5f);
    }
}

// Batched evaluation decodes its batches on two threads; the report must still list every
// sentence in data order with the output one-at-a-time decoding gives. A model one epoch in
// makes varied mistakes, so a batch put back in the wrong place would show.
void TestSeq2SeqModel::batchedEvaluationKeepsDataOrder()
{
    Seq2SeqModel model(tinyModelConfig(), Vocabulary::build(m_data.train), 2);
    TrainingConfig t = tinyTraining();
    t.epochs = 1;
    Trainer(model, m_data, t).run();
    std::vector<SentencePair> sentences = m_data.test;
    sentences.insert(sentences.end(), m_data.val.begin(), m_data.val.end());
    QVERIFY(sentences.size() > 3 * 64);
    const EvaluationReport batched = evaluate(model, sentences, DecodeMode::Batched);
    const EvaluationReport alone = evaluate(model, sentences, DecodeMode::OneAtATime);
    QVERIFY(alone.exactMatch > 0.05 && alone.exactMatch < 0.95);
    QCOMPARE(batched.examples.size(), sentences.size());
    for (std::size_t i = 0; i < sentences.size(); ++i) {
        QCOMPARE(batched.examples[i].input, alone.examples[i].input);
        QCOMPARE(batched.examples[i].output, alone.examples[i].output);
    }
    QCOMPARE(batched.exactMatch, alone.exactMatch);
}

void TestSeq2SeqModel::unknownWordIsCopiedFromAttendedSource_data()
{
    QTest::addColumn<QString>("input");
    QTest::addColumn<QString>("expected");
    QTest::newRow("middle") << "red zebra sun" << "sun zebra red";
    QTest::newRow("first") << "Zebra cat dog" << "dog cat zebra";
    QTest::newRow("last") << "moon tree okapi" << "okapi tree moon";
}

void TestSeq2SeqModel::unknownWordIsCopiedFromAttendedSource()
{
    QFETCH(QString, input);
    QFETCH(QString, expected);
    const DecodedSentence out = m_model->reverse(input.toStdString());
    QCOMPARE(QString::fromStdString(out.text()), expected);
    const int unknownAt = int(std::find(out.sourceKnown.begin(), out.sourceKnown.end(), false) - out.sourceKnown.begin());
    QVERIFY(unknownAt < out.columns() - 1);
    int copied = 0;
    for (int r = 0; r < out.rows(); ++r) {
        if (!out.outputCopied[std::size_t(r)])
            continue;
        ++copied;
        QCOMPARE(out.outputTokens[std::size_t(r)], out.sourceTokens[std::size_t(unknownAt)]);
    }
    QCOMPARE(copied, 1);
}

void TestSeq2SeqModel::replacementCanBeTurnedOff()
{
    DecodeOptions options;
    options.replaceUnknown = false;
    const DecodedSentence out = m_model->reverse("red zebra sun", options);
    QCOMPARE(QString::fromStdString(out.text()), QStringLiteral("sun <UNK> red"));
}

void TestSeq2SeqModel::attentionRowsAreDistributions()
{
    const DecodedSentence out = m_model->reverse("red cat sun moon");
    QCOMPARE(out.columns(), 5);
    QCOMPARE(out.outputTokens.back(), std::string("<EOS>"));
    for (int r = 0; r < out.rows(); ++r) {
        double sum = 0;
        for (int c = 0; c < out.columns(); ++c)
            sum += out.weight(r, c);
        QVERIFY(std::abs(sum - 1.0) < 1e-5);
    }
}

void TestSeq2SeqModel::oddInput_data()
{
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<int>("sourceWords");
    QTest::addColumn<bool>("truncated");
    QTest::newRow("empty") << QByteArray("") << 0 << false;
    QTest::newRow("spaces") << QByteArray("   \t ") << 0 << false;
    QTest::newRow("one word") << QByteArray("cat") << 1 << false;
    QTest::newRow("repeated words") << QByteArray("cat cat cat cat cat") << 5 << false;
    QTest::newRow("punctuation") << QByteArray("?!,") << 3 << false;
    QTest::newRow("upper case") << QByteArray("RED Cat SUN") << 3 << false;
    QTest::newRow("accents") << QStringLiteral("café crème brûlée").toUtf8() << 3 << false;
    QTest::newRow("CJK") << QStringLiteral("猫 が 好き").toUtf8() << 3 << false;
    QTest::newRow("emoji") << QStringLiteral("🐈 🐕‍🦺 👍🏽").toUtf8() << 3 << false;
    QTest::newRow("unknown words") << QByteArray("zebra okapi quokka") << 3 << false;
    QTest::newRow("invalid UTF-8") << QByteArray("red \xff\xfe cat") << 3 << false;
    QTest::newRow("one 100,000-letter word") << QByteArray(100000, 'x') << 1 << false;
    QTest::newRow("1000 words") << QByteArray("cat ").repeated(1000) << Seq2SeqModel::kMaxInputTokens << true;
    QTest::newRow("1000 unknown words") << QByteArray("zebra, ").repeated(500) << Seq2SeqModel::kMaxInputTokens << true;
}

void TestSeq2SeqModel::oddInput()
{
    QFETCH(QByteArray, input);
    QFETCH(int, sourceWords);
    QFETCH(bool, truncated);
    const DecodedSentence out = m_model->reverse(input.toStdString());
    QCOMPARE(out.columns(), sourceWords + 1);
    QCOMPARE(out.truncatedInput, truncated);
    QVERIFY(out.rows() >= 1);
    QVERIFY(out.rows() <= 2 * sourceWords + 5);  // decoding is bounded
    QCOMPARE(out.attention.size(), std::size_t(out.rows() * out.columns()));
    // Every output word is one the model knows, or a source word copied in place of <UNK>.
    for (int r = 0; r < out.rows(); ++r) {
        const std::string &word = out.outputTokens[std::size_t(r)];
        if (out.outputCopied[std::size_t(r)])
            QVERIFY(std::find(out.sourceTokens.begin(), out.sourceTokens.end(), word) != out.sourceTokens.end());
        else
            QVERIFY2(m_model->vocabulary().contains(word), word.c_str());
    }
}

void TestSeq2SeqModel::upperCaseReadsAsLowerCase()
{
    QVERIFY(m_model->lowercase());
    const DecodedSentence upper = m_model->reverse("RED Cat SUN");
    const DecodedSentence lower = m_model->reverse("red cat sun");
    QCOMPARE(upper.sourceTokens, lower.sourceTokens);
    QCOMPARE(upper.outputTokens, lower.outputTokens);
    QCOMPARE(QString::fromStdString(upper.text()), QStringLiteral("sun cat red"));
}

void TestSeq2SeqModel::cloneIsIndependentAndEqual()
{
    Seq2SeqModel copy = m_model->clone();
    QCOMPARE(copy.reverse("red cat sun").attention, m_model->reverse("red cat sun").attention);
    QCOMPARE(copy.vocabulary().words(), m_model->vocabulary().words());
    // Training the copy leaves the original alone.
    const auto before = m_model->reverse("red cat sun").attention;
    TrainingConfig t = tinyTraining();
    t.epochs = 1;
    t.learningRate = 0.1;
    Trainer(copy, m_data, t).run();
    QCOMPARE(m_model->reverse("red cat sun").attention, before);
    QVERIFY(copy.reverse("red cat sun").attention != before);
}

ATTNSCOPE_TEST(seq2seqmodel, TestSeq2SeqModel)
#include "tst_seq2seqmodel.moc"
