#include "tests/common/testregistry.h"
#include "engine/word2vec/builtincorpus.h"
#include "engine/word2vec/wordcorpus.h"

#include <QtTest>

#include <stdexcept>

// Reading a corpus as gensim's measuring script does, refusing what is not one, and the preview.
class TestWordCorpus : public QObject
{
    Q_OBJECT
private slots:
    void corpusWords_data();
    void corpusWords();
    void vocabularyAndLines();
    void vocabularyCap();
    void longLinesAreCut();
    void refusesBadCorpora_data();
    void refusesBadCorpora();
    void previewCounts();
    void previewWarnings();
    void punctuationCanBeKeptAsWords();
    void builtInCorpusHoldsItsCategories();
};

void TestWordCorpus::corpusWords_data()
{
    QTest::addColumn<QString>("line");
    QTest::addColumn<QStringList>("words");
    // Expected as Python's re.findall(r"[a-z]+(?:'[a-z]+)?", line.lower()) gives them.
    QTest::newRow("contraction and punctuation") << "Don't stop!" << QStringList{"don't", "stop"};
    QTest::newRow("one inner apostrophe per word") << "rock'n'roll" << QStringList{"rock'n", "roll"};
    QTest::newRow("leading and trailing apostrophes") << "'tis the students' books"
                                                      << QStringList{"tis", "the", "students", "books"};
    QTest::newRow("digits separate") << "abc123def" << QStringList{"abc", "def"};
    QTest::newRow("accents separate") << "naïve café" << QStringList{"na", "ve", "caf"};
    QTest::newRow("upper case lowered") << "HELLO World" << QStringList{"hello", "world"};
    QTest::newRow("dashes") << "a--b" << QStringList{"a", "b"};
    QTest::newRow("apostrophe at the end") << "it's'" << QStringList{"it's"};
    QTest::newRow("possessive of a contraction") << "o'clock's" << QStringList{"o'clock", "s"};
    QTest::newRow("Kelvin sign lowers to k") << "The \u212Aing" << QStringList{"the", "king"};
    QTest::newRow("dotted capital I lowers to i and a mark") << "x\u0130y" << QStringList{"xi", "y"};
    QTest::newRow("nothing") << "  42, ... !" << QStringList{};
}

void TestWordCorpus::corpusWords()
{
    QFETCH(QString, line);
    QFETCH(QStringList, words);
    QStringList got;
    for (const std::string &word : ::corpusWords(line.toStdString()))
        got << QString::fromStdString(word);
    QCOMPARE(got, words);
}

// The course's toy corpus keeps the full stop as a token.
void TestWordCorpus::punctuationCanBeKeptAsWords()
{
    const std::string line = "The king rules. Long live the queen!";
    QCOMPARE(::corpusWords(line, true),
             (std::vector<std::string>{"the", "king", "rules", ".", "long", "live", "the", "queen", "!"}));
    QCOMPARE(::corpusWords("Well, no; why: ... ?", true),
             (std::vector<std::string>{"well", ",", "no", ";", "why", ":", ".", ".", ".", "?"}));
    QCOMPARE(::corpusWords("a - b \"c\" (d)", true), (std::vector<std::string>{"a", "b", "c", "d"}));
    CorpusConfig config;
    config.punctuation = true;
    const WordCorpus kept = buildWordCorpus("the king rules.\nthe queen rules.", config);
    QCOMPARE(kept.index("."), 0);  // as frequent as "rules" and "the"; ties go in byte order
    QCOMPARE(kept.counts[0], int64_t(2));
    QCOMPARE(buildWordCorpus("the king rules.", CorpusConfig{}).index("."), -1);
}

void TestWordCorpus::vocabularyAndLines()
{
    CorpusConfig config;
    config.minCount = 2;
    const WordCorpus corpus = buildWordCorpus("the cat sat on the mat\nThe dog sat.\n\n!!!\nA cat", config);
    // Counts: the 3, cat 2, sat 2, and once each a, dog, mat, on; ties alphabetical.
    QCOMPARE(corpus.words, (std::vector<std::string>{"the", "cat", "sat"}));
    QCOMPARE(corpus.counts, (std::vector<int64_t>{3, 2, 2}));
    QCOMPARE(corpus.rawTokens, int64_t(11));
    QCOMPARE(corpus.distinctWords, int64_t(7));
    // Lines with no kept word are left out.
    QCOMPARE(corpus.tokens, (std::vector<int32_t>{0, 1, 2, 0, 0, 2, 1}));
    QCOMPARE(corpus.lineStarts, (std::vector<int64_t>{0, 4, 6, 7}));
    QCOMPARE(corpus.lines(), 3);
    QCOMPARE(corpus.index("sat"), 2);
    QCOMPARE(corpus.index("dog"), -1);
}

void TestWordCorpus::vocabularyCap()
{
    CorpusConfig config;
    config.maxVocabulary = 2;
    const WordCorpus corpus = buildWordCorpus("b a b c a b\nc c c c", config);
    QCOMPARE(corpus.words, (std::vector<std::string>{"c", "b"}));
    QCOMPARE(corpus.tokens, (std::vector<int32_t>{1, 1, 0, 1, 0, 0, 0, 0}));
}

void TestWordCorpus::longLinesAreCut()
{
    std::string text;
    for (int i = 0; i < 25000; ++i)
        text += i % 2 ? "cat " : "dog ";
    text += "\nrare words cat";
    CorpusConfig config;
    config.minCount = 2;
    const WordCorpus corpus = buildWordCorpus(text, config);
    QCOMPARE(corpus.lineStarts, (std::vector<int64_t>{0, 10000, 20000, 25000, 25001}));
}

void TestWordCorpus::refusesBadCorpora_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<int>("minCount");
    QTest::addColumn<QString>("message");
    QTest::newRow("empty") << QByteArray() << 1 << "no words";
    QTest::newRow("no letters") << QByteArray("1234 5678\n!!! ???\n") << 1 << "no words";
    QTest::newRow("a NUL byte") << QByteArray("hello\0world", 11) << 1 << "binary";
    QByteArray noise;
    for (int i = 0; i < 400; ++i)
        noise += char((i * 37) % 256);
    QTest::newRow("mostly not text") << noise << 1 << "binary";
    QTest::newRow("bad UTF-8") << QByteArray("\xff\xfe\xfa\xfb word \xc3\x28\xa0\xa1") << 1 << "binary";
    QTest::newRow("nothing left after min count") << QByteArray("each word once") << 2 << "at least 2 times";
    QTest::newRow("min count out of range") << QByteArray("a a") << 0 << "minimum count";
}

void TestWordCorpus::refusesBadCorpora()
{
    QFETCH(QByteArray, text);
    QFETCH(int, minCount);
    QFETCH(QString, message);
    CorpusConfig config;
    config.minCount = minCount;
    try {
        buildWordCorpus(text.toStdString(), config);
        QFAIL("accepted");
    } catch (const std::invalid_argument &error) {
        QVERIFY2(QString(error.what()).contains(message), error.what());
    }
}

void TestWordCorpus::previewCounts()
{
    CorpusConfig corpusConfig;
    corpusConfig.minCount = 2;
    Word2VecConfig config;
    config.window = 2;
    config.dimensions = 2;
    // Kept lines of 3, 5 and 1 words ("x" and "z" fall below the minimum count).
    const WordCorpus corpus = buildWordCorpus("a b c x\na a b b c z\nc", corpusConfig);
    const CorpusPreview preview = previewCorpus(corpus, corpusConfig, config);
    QCOMPARE(preview.rawTokens, int64_t(11));
    QCOMPARE(preview.distinctWords, int64_t(5));
    QCOMPARE(preview.vocabulary, 3);
    QCOMPARE(preview.keptTokens, int64_t(9));
    QCOMPARE(preview.expectedAfterSampling, 9.0);
    QCOMPARE(preview.parameters, int64_t(2 * 3 * 2));
    // With b uniform in 1..2, a word with i neighbours on one side pairs with E[min(b, i)] of them:
    // 0, 1, 1.5 for i = 0, 1, >= 2. Lines of 3, 5, 1: 2 x (2.5 + 5.5 + 0) pairs.
    QCOMPARE(preview.pairsPerEpoch, 16.0);

    // Subsampling at t = 0.1: every kept word has f = 3/9, kept with (sqrt(f / t) + 1) * t / f;
    // the expected line lengths shrink by that share and the pairs with them.
    corpusConfig.sample = 0.1;
    const double keep = (std::sqrt(1.0 / 3 / 0.1) + 1) * 0.1 * 3;
    const CorpusPreview sampled = previewCorpus(corpus, corpusConfig, config);
    QVERIFY(std::abs(sampled.expectedAfterSampling - 9 * keep) < 1e-9);
    QVERIFY(sampled.pairsPerEpoch < preview.pairsPerEpoch);
    QVERIFY(sampled.warnings.empty());
}

void TestWordCorpus::previewWarnings()
{
    // The built-in corpus at settings for large corpora: many tokens and words go.
    CorpusConfig corpusConfig;
    corpusConfig.sample = 1e-3;
    corpusConfig.minCount = 10;
    Word2VecConfig config;
    config.dimensions = 300;
    const WordCorpus corpus = buildWordCorpus(builtInWordCorpus(), corpusConfig);
    const CorpusPreview preview = previewCorpus(corpus, corpusConfig, config);
    auto has = [&](const QString &start) {
        for (const std::string &warning : preview.warnings)
            if (QString::fromStdString(warning).startsWith(start))
                return true;
        return false;
    };
    QVERIFY(has("Subsampling at t = 0.001 keeps only "));
    QVERIFY(has("Min count 10 drops "));
    QVERIFY(has("The model has "));
    QVERIFY(preview.expectedAfterSampling < 0.75 * double(preview.keptTokens));

    // The lab's defaults on its own corpus warn of nothing.
    const CorpusConfig defaults;
    const WordCorpus whole = buildWordCorpus(builtInWordCorpus(), defaults);
    QCOMPARE(previewCorpus(whole, defaults, Word2VecConfig{}).warnings, std::vector<std::string>{});

    // Fewer words than dimensions: training would refuse it, and the preview says so first.
    const WordCorpus tiny = buildWordCorpus("one two three", defaults);
    const CorpusPreview tinyPreview = previewCorpus(tiny, defaults, Word2VecConfig{});
    const auto &warnings = tinyPreview.warnings;
    QVERIFY(std::any_of(warnings.begin(), warnings.end(), [](const std::string &w) {
        return w.find("fewer than the 50 dimensions") != std::string::npos;
    }));
}

void TestWordCorpus::builtInCorpusHoldsItsCategories()
{
    const WordCorpus corpus = buildWordCorpus(builtInWordCorpus(), CorpusConfig{});
    QVERIFY(corpus.lines() >= 300 && corpus.lines() <= 650);
    QVERIFY(corpus.index("king") >= 0 && corpus.index("queen") >= 0);
    for (const WordCategory &category : builtInWordCategories()) {
        QVERIFY(category.words.size() >= 4);
        for (const std::string &word : category.words) {
            const int index = corpus.index(word);
            QVERIFY2(index >= 0 && corpus.counts[size_t(index)] >= 5, word.c_str());
        }
    }
}

ATTNSCOPE_TEST(wordcorpus, TestWordCorpus)
#include "tst_wordcorpus.moc"
