#include "tests/common/testregistry.h"
#include "engine/attention/lengthreport.h"
#include "engine/attention/seq2seqmodel.h"
#include "engine/core/corpusdefaults.h"
#include "engine/core/dataset.h"
#include "engine/core/vocabulary.h"
#include "ui/attention/datasetpanel.h"

#include <QtTest>

#include <QLabel>
#include <QSpinBox>

#include <fstream>

// The settings on auto: limits and a vocabulary taken from a corpus file, the synthetic task's
// tuned values kept, and the Dataset panel's preview saying what they came to before training.
class TestCorpusDefaults : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void lengthPercentile_data();
    void lengthPercentile();
    void autoLimitComesFromTheCorpus();
    void aSetLimitIsKept();
    void autoLimitStaysInTheFieldsRange();
    void syntheticDefaultsAreUnchanged();
    void rareWordsBecomeUnknownInACorpus();
    void epochDecayIsGentlerForACorpus();
    void attentionIsLocationAwareForACorpus();
    void corpusVocabularyIsCapped();
    void previewReportsWhatTheBuildSkips();
    void lengthReportSetsEachLengthBesideTheCorpus();

private:
    QTemporaryDir m_dir;
    std::string m_corpus;
};

// 98 lines of 3 to 6 words, one of 30, one of 2 and one blank: 100 non-blank lengths, whose 99th
// percentile (nearest rank: the 99th smallest) is 6. "once" occurs in one line only.
void TestCorpusDefaults::initTestCase()
{
    QVERIFY(m_dir.isValid());
    const std::vector<std::string> words = {"red", "green", "blue", "cat", "dog", "sun"};
    std::string text;
    for (int line = 0; line < 98; ++line) {
        const int length = 3 + line % 4;
        for (int w = 0; w < length; ++w)
            text += (line == 0 && w == 0 ? std::string("once") : words[std::size_t(line + w) % words.size()]) + " ";
        text += "\n";
    }
    text += "one two three four five six seven eight nine ten a b c d e f g h i j k l m n o p q r s t\n";
    text += "\n";
    text += "too short\n";
    m_corpus = m_dir.filePath("corpus.txt").toStdString();
    std::ofstream(m_corpus, std::ios::binary) << text;
}

void TestCorpusDefaults::lengthPercentile_data()
{
    QTest::addColumn<std::vector<int>>("lengths");
    QTest::addColumn<int>("percentile");
    QTest::addColumn<int>("expected");
    QTest::newRow("none") << std::vector<int>{} << 99 << 0;
    QTest::newRow("one") << std::vector<int>{7} << 99 << 7;
    QTest::newRow("1..10, 99th") << std::vector<int>{10, 9, 8, 7, 6, 5, 4, 3, 2, 1} << 99 << 10;
    QTest::newRow("1..10, 90th") << std::vector<int>{10, 9, 8, 7, 6, 5, 4, 3, 2, 1} << 90 << 9;
    QTest::newRow("1..10, 50th") << std::vector<int>{3, 1, 4, 10, 5, 9, 2, 6, 8, 7} << 50 << 5;
    QTest::newRow("one long outlier of 100") << [] {
        std::vector<int> v(99, 8);
        v.push_back(40);
        return v;
    }() << 99 << 8;
    QTest::newRow("100th is the longest") << std::vector<int>{4, 40} << 100 << 40;
}

void TestCorpusDefaults::lengthPercentile()
{
    QFETCH(std::vector<int>, lengths);
    QFETCH(int, percentile);
    QFETCH(int, expected);
    QCOMPARE(::lengthPercentile(lengths, percentile), expected);
}

void TestCorpusDefaults::autoLimitComesFromTheCorpus()
{
    DatasetConfig c;
    c.corpusPath = m_corpus;
    QCOMPARE(c.maxLength, 0);
    const Dataset d = Dataset::build(c);
    QVERIFY(d.fromCorpus);
    QCOMPARE(d.maxLength, 6);
    QCOMPARE(d.lengthPercentile, kCorpusLengthPercentile);
    QCOMPARE(d.skippedBlank, 1);
    QCOMPARE(d.skippedTooLong, 1);
    QCOMPARE(d.skippedTooShort, 1);
    QCOMPARE(int(d.train.size() + d.val.size() + d.test.size()), 98);

    // Auto never goes below the minimum length: 400 lines of 2 words put the percentile at 2, and
    // the 3 lines of 8 words the minimum asks for are still kept.
    std::string shortLines;
    for (int i = 0; i < 400; ++i)
        shortLines += "a b\n";
    shortLines += "a b c d e f g h\nb c d e f g h i\nc d e f g h i j\n";
    c.minLength = 8;
    c.corpusPath = m_dir.filePath("short.txt").toStdString();
    std::ofstream(c.corpusPath) << shortLines;
    const Dataset raised = Dataset::build(c);
    QCOMPARE(raised.maxLength, 8);
    QCOMPARE(raised.skippedTooShort, 400);
    QCOMPARE(raised.skippedTooLong, 0);
}

void TestCorpusDefaults::aSetLimitIsKept()
{
    DatasetConfig c;
    c.corpusPath = m_corpus;
    c.maxLength = 5;
    const Dataset d = Dataset::build(c);
    QCOMPARE(d.maxLength, 5);
    QCOMPARE(d.lengthPercentile, 0);
    QCOMPARE(d.skippedTooLong, 1 + 98 / 4);  // the long line and the 6-word ones (every fourth)
    c.maxLength = 3;
    c.minLength = 4;
    QVERIFY(QString::fromStdString(validate(c)).contains("maximum length 3"));
}

void TestCorpusDefaults::autoLimitStaysInTheFieldsRange()
{
    // A file of paragraphs, not sentences: auto stops at the longest length a setting may ask for.
    std::string paragraph;
    for (int w = 0; w < 150; ++w)
        paragraph += "word ";
    DatasetConfig c;
    c.corpusPath = m_dir.filePath("paragraphs.txt").toStdString();
    std::ofstream(c.corpusPath) << paragraph << "\n" << paragraph << "\na b c\nd e f\ng h i\n";
    const Dataset d = Dataset::build(c);
    QCOMPARE(d.maxLength, kLongestSentence);
    QCOMPARE(d.skippedTooLong, 2);
}

void TestCorpusDefaults::syntheticDefaultsAreUnchanged()
{
    const DatasetConfig automatic;
    QCOMPARE(automatic.minLength, 3);
    QCOMPARE(generatedMaxLength(automatic), 10);
    QCOMPARE(effectiveMinCount(automatic), 1);
    QCOMPARE(effectiveEpochDecay(TrainingConfig{}, /*corpus=*/false), 0.5);

    // The same sentences as the 3-10 words set by hand, and the same vocabulary.
    DatasetConfig explicitOnes;
    explicitOnes.maxLength = 10;
    explicitOnes.minCount = 1;
    const Dataset a = Dataset::build(automatic);
    const Dataset b = Dataset::build(explicitOnes);
    QVERIFY(!a.fromCorpus);
    QCOMPARE(a.maxLength, 10);
    QCOMPARE(a.lengthPercentile, 0);
    QCOMPARE(a.train.size(), b.train.size());
    for (std::size_t i = 0; i < a.train.size(); ++i)
        QCOMPARE(a.train[i].source, b.train[i].source);
    for (std::size_t i = 0; i < a.test.size(); ++i)
        QCOMPARE(a.test[i].source, b.test[i].source);
    QVERIFY(Vocabulary::build(a.train, 0, effectiveMinCount(automatic)) == Vocabulary::build(b.train, 0, 1));
    QCOMPARE(Vocabulary::build(a.train, 0, effectiveMinCount(automatic)).size(), 4 + 34);
}

void TestCorpusDefaults::rareWordsBecomeUnknownInACorpus()
{
    DatasetConfig c;
    c.corpusPath = m_corpus;
    QCOMPARE(effectiveMinCount(c), kCorpusMinCount);
    const Dataset d = Dataset::build(c);
    // The word seen once is in the training split unless the shuffle held its line out.
    bool onceInTraining = false;
    for (const SentencePair &p : d.train)
        onceInTraining |= std::find(p.source.begin(), p.source.end(), "once") != p.source.end();
    const Vocabulary automatic = Vocabulary::build(d.train, c.maxVocabulary, effectiveMinCount(c));
    QVERIFY(!automatic.contains("once"));
    QVERIFY(automatic.contains("cat"));
    QCOMPARE(automatic.id("once"), Vocabulary::kUnk);
    c.minCount = 1;
    QCOMPARE(effectiveMinCount(c), 1);
    QCOMPARE(Vocabulary::build(d.train, c.maxVocabulary, effectiveMinCount(c)).contains("once"), onceInTraining);
    c.minCount = 3;
    QCOMPARE(effectiveMinCount(c), 3);
}

void TestCorpusDefaults::attentionIsLocationAwareForACorpus()
{
    const ModelConfig automatic;
    QCOMPARE(automatic.attention, AttentionKind::Auto);
    QCOMPARE(resolvedFor(automatic, /*corpus=*/true).attention, AttentionKind::Location);
    QCOMPARE(resolvedFor(automatic, /*corpus=*/false).attention, AttentionKind::Bahdanau);
    ModelConfig chosen;
    chosen.attention = AttentionKind::LuongDot;
    QCOMPARE(resolvedFor(chosen, true).attention, AttentionKind::LuongDot);
    // auto is a setting to choose, not a variant to compare.
    AttentionKind parsed = AttentionKind::Bahdanau;
    QVERIFY(parseAttention("auto", &parsed));
    QCOMPARE(parsed, AttentionKind::Auto);
    const std::vector<AttentionKind> &variants = attentionKinds();
    QVERIFY(std::find(variants.begin(), variants.end(), AttentionKind::Auto) == variants.end());

    // A model for a corpus is built location-aware; one built without knowing its data, as generated.
    DatasetConfig c;
    c.corpusPath = m_corpus;
    ModelConfig small;
    small.embedSize = 8;
    small.hiddenSize = 8;
    const Dataset d = Dataset::build(c);
    QCOMPARE(Seq2SeqModel::forDataset(small, d, c, 1).config().attention, AttentionKind::Location);
    QCOMPARE(Seq2SeqModel(small, vocabularyFor(d, c), 1).config().attention, AttentionKind::Bahdanau);
}

void TestCorpusDefaults::corpusVocabularyIsCapped()
{
    // 10,100 words, each in two lines of three: beyond the cap, and every one seen twice.
    const std::string path = m_dir.filePath("manywords.txt").toStdString();
    {
        std::ofstream out(path);
        for (int line = 0; line < 2 * 10100 / 3 + 1; ++line)
            for (int k = 0; k < 3; ++k)
                out << "w" << (3 * line + k) % 10100 << (k == 2 ? "\n" : " ");
    }
    DatasetConfig c;
    c.corpusPath = path;
    c.valFraction = c.testFraction = 0.01;
    c.minCount = 1;  // so that a word whose other line was held out still counts
    QCOMPARE(effectiveMaxVocabulary(c), kCorpusMaxVocabulary);
    const Dataset d = Dataset::build(c);
    QCOMPARE(vocabularyFor(d, c).size(), 4 + kCorpusMaxVocabulary);
    c.maxVocabulary = 50;
    QCOMPARE(vocabularyFor(d, c).size(), 4 + 50);
    DatasetConfig generated;
    QCOMPARE(effectiveMaxVocabulary(generated), 0);  // no limit: every generated word is known
}

void TestCorpusDefaults::epochDecayIsGentlerForACorpus()
{
    TrainingConfig t;
    QCOMPARE(t.learningRateEpochDecay, 0.0);
    QVERIFY(validate(t).empty());
    QCOMPARE(effectiveEpochDecay(t, /*corpus=*/true), 0.8);
    t.learningRateEpochDecay = 0.7;
    QCOMPARE(effectiveEpochDecay(t, /*corpus=*/true), 0.7);
    QCOMPARE(effectiveEpochDecay(t, /*corpus=*/false), 0.7);
}

void TestCorpusDefaults::previewReportsWhatTheBuildSkips()
{
    DatasetPanel panel;
    auto *preview = panel.findChild<QLabel *>("datasetPreview");
    auto *maxLength = panel.findChild<QSpinBox *>("max-len");
    auto *minCount = panel.findChild<QSpinBox *>("min-count");
    QVERIFY(preview && maxLength && minCount);
    QTRY_COMPARE(maxLength->specialValueText(), QStringLiteral("Auto (10)"));
    QCOMPARE(maxLength->text(), QStringLiteral("Auto (10)"));
    QCOMPARE(minCount->text(), QStringLiteral("Auto (1)"));

    DatasetConfig c;
    c.corpusPath = m_corpus;
    panel.setConfig(c);
    const Dataset d = Dataset::build(c);
    const int vocabulary = Vocabulary::build(d.train, 0, kCorpusMinCount).size();
    QTRY_VERIFY2(preview->text().contains("Skipped"), qPrintable(preview->text()));
    const QString text = preview->text();
    QVERIFY2(text.contains(QStringLiteral("Skipped %1 blank, %2 too long and %3 too short lines.")
                               .arg(d.skippedBlank)
                               .arg(d.skippedTooLong)
                               .arg(d.skippedTooShort)),
             qPrintable(text));
    QVERIFY2(text.contains("Lengths 3 to 6 tokens (auto: the 99th percentile"), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("Vocabulary: %1 words, minimum count 2 (auto), at most %2 (auto).")
                               .arg(vocabulary)
                               .arg(QLocale().toString(kCorpusMaxVocabulary))),
             qPrintable(text));
    QVERIFY2(text.contains("per epoch on auto is x0.8 for a file"), qPrintable(text));
    QCOMPARE(maxLength->text(), QStringLiteral("Auto (6)"));
    QCOMPARE(minCount->text(), QStringLiteral("Auto (2)"));

    // A limit set by hand is the one the preview uses.
    maxLength->setValue(5);
    QTRY_VERIFY2(preview->text().contains("Lengths 3 to 5 tokens."), qPrintable(preview->text()));
    QVERIFY(preview->text().contains(QStringLiteral("%1 too long").arg(1 + 98 / 4)));
}

// Each length's share of all three splits beside its test exact match; the lengths under the bar
// named with the share of the corpus they hold; a length without test sentences is not under it.
void TestCorpusDefaults::lengthReportSetsEachLengthBesideTheCorpus()
{
    const auto pairs = [](int count, int length) {
        const SentencePair pair{std::vector<std::string>(std::size_t(length), "w"),
                                std::vector<std::string>(std::size_t(length), "w")};
        return std::vector<SentencePair>(std::size_t(count), pair);
    };
    Dataset data;
    data.fromCorpus = true;
    data.train = pairs(10, 3);
    for (const SentencePair &p : pairs(4, 9))
        data.train.push_back(p);
    data.val = pairs(2, 12);
    data.test = pairs(3, 3);
    for (const SentencePair &p : pairs(1, 9))
        data.test.push_back(p);
    EvaluationReport test;
    test.byLength = {{3, {3, 3}}, {9, {0, 1}}};

    const LengthReport report = lengthReport(data, test);
    QCOMPARE(int(report.rows.size()), 3);
    QCOMPARE(report.rows[0].length, 3);
    QCOMPARE(report.rows[0].corpusSentences, 13);
    QCOMPARE(report.rows[0].corpusShare, 13.0 / 20);
    QCOMPARE(report.rows[0].test.correct, 3);
    QCOMPARE(report.rows[1].length, 9);
    QCOMPARE(report.rows[1].corpusSentences, 5);
    QCOMPARE(report.rows[1].test.total, 1);
    QCOMPARE(report.rows[2].length, 12);  // in validation only: no test sentences, so not under the bar
    QCOMPARE(report.rows[2].test.total, 0);
    QCOMPARE(report.below, std::vector<int>{9});
    QCOMPARE(report.belowShare, 5.0 / 20);
    const std::string text = formatLengthReport(report);
    QVERIFY2(text.find("Below 90%: 9 words, 25.0% of the corpus.") != std::string::npos, text.c_str());

    test.byLength[9] = {1, 1};
    QVERIFY(lengthReport(data, test).below.empty());
    QVERIFY(formatLengthReport(lengthReport(data, test)).find("Every length with test sentences reaches 90%.")
            != std::string::npos);
}

ATTNSCOPE_TEST(corpusdefaults, TestCorpusDefaults)
#include "tst_corpusdefaults.moc"
