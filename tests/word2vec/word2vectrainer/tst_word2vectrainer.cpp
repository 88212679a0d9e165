#include "tests/common/testregistry.h"
#include "engine/word2vec/builtincorpus.h"
#include "engine/word2vec/word2vectrainer.h"
#include "tests/common/configtablechecks.h"

#include <QtTest>

#include <cmath>
#include <stdexcept>

// Training on the built-in corpus: meaning appears, runs repeat, progress and stop behave, and
// corpora that cannot be trained on are refused.
class TestWord2VecTrainer : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void configTablesAreSound();
    void neighboursStayInTheirCategory_data();
    void neighboursStayInTheirCategory();
    void oneThreadIsDeterministic();
    void progressCoversTheRun();
    void stopEndsTrainingBetweenRounds();
    void wholeWindowAndConstantRateAsTheCourseTrains();
    void theCoursesNormalStart();
    void refusesWhatCannotBeTrained_data();
    void refusesWhatCannotBeTrained();

private:
    WordCorpus m_corpus;
};

namespace {

double cosine(const WordVectors &vectors, int a, int b)
{
    double dot = 0, normA = 0, normB = 0;
    for (int d = 0; d < vectors.dimensions; ++d) {
        const double x = vectors.values[size_t(a * vectors.dimensions + d)];
        const double y = vectors.values[size_t(b * vectors.dimensions + d)];
        dot += x * y;
        normA += x * x;
        normB += y * y;
    }
    return dot / std::sqrt(normA * normB);
}

int nearestNeighbour(const WordVectors &vectors, int word)
{
    int best = -1;
    double bestCosine = -2;
    for (int other = 0; other < vectors.size(); ++other) {
        const double c = other == word ? -2 : cosine(vectors, word, other);
        if (c > bestCosine) {
            bestCosine = c;
            best = other;
        }
    }
    return best;
}

int wordIndex(const WordVectors &vectors, const std::string &word)
{
    const auto found = std::find(vectors.words.begin(), vectors.words.end(), word);
    return found == vectors.words.end() ? -1 : int(found - vectors.words.begin());
}

}

void TestWord2VecTrainer::initTestCase()
{
    m_corpus = buildWordCorpus(builtInWordCorpus(), CorpusConfig{});
}

void TestWord2VecTrainer::configTablesAreSound()
{
    checkConfigTable(corpusFields(), /*sharedFields=*/0);
    checkConfigTable(word2vecFields(), /*sharedFields=*/3);
}

void TestWord2VecTrainer::neighboursStayInTheirCategory_data()
{
    QTest::addColumn<bool>("cbow");
    QTest::addColumn<int>("threads");
    // Measured with seeds 1-5 at one thread: skip-gram 83-85 of the 86 words, CBOW 81-82.
    QTest::newRow("skip-gram") << false << 1;
    QTest::newRow("CBOW") << true << 1;
    QTest::newRow("skip-gram, two threads") << false << 2;
    QTest::newRow("skip-gram, all cores") << false << 0;
}

// The lab's first run: the defaults on the built-in corpus.
void TestWord2VecTrainer::neighboursStayInTheirCategory()
{
    QFETCH(bool, cbow);
    QFETCH(int, threads);
    Word2VecConfig config;
    config.architecture = cbow ? Word2VecArchitecture::Cbow : Word2VecArchitecture::SkipGram;
    config.threads = threads;
    Word2VecTrainer trainer(m_corpus, CorpusConfig{}, config);
    const std::vector<Word2VecEpoch> epochs = trainer.train({});
    QCOMPARE(int(epochs.size()), config.epochs);
    QVERIFY2(epochs.back().loss < 0.5 * epochs.front().loss,
             qPrintable(QString("loss %1 -> %2").arg(epochs.front().loss).arg(epochs.back().loss)));

    const WordVectors vectors = trainer.vectors();
    int inCategory = 0, words = 0;
    QStringList strays;
    for (const WordCategory &category : builtInWordCategories()) {
        for (const std::string &word : category.words) {
            const std::string neighbour = vectors.words[size_t(nearestNeighbour(vectors, wordIndex(vectors, word)))];
            const auto &own = category.words;
            const bool same = std::find(own.begin(), own.end(), neighbour) != own.end();
            inCategory += same ? 1 : 0;
            if (!same)
                strays << QString::fromStdString(word + " -> " + neighbour);
            ++words;
        }
    }
    QVERIFY2(inCategory >= 0.8 * words,
             qPrintable(QString("%1 of %2 in their category; strays: %3")
                            .arg(inCategory)
                            .arg(words)
                            .arg(strays.join(", "))));
}

void TestWord2VecTrainer::oneThreadIsDeterministic()
{
    Word2VecConfig config;
    config.threads = 1;
    config.epochs = 5;
    config.seed = 42;
    Word2VecTrainer first(m_corpus, CorpusConfig{}, config);
    Word2VecTrainer second(m_corpus, CorpusConfig{}, config);
    QCOMPARE(first.vectors().values, second.vectors().values);
    first.train({});
    second.train({});
    QCOMPARE(first.vectors().values, second.vectors().values);

    config.seed = 43;
    Word2VecTrainer other(m_corpus, CorpusConfig{}, config);
    other.train({});
    QVERIFY(other.vectors().values != first.vectors().values);
}

void TestWord2VecTrainer::progressCoversTheRun()
{
    Word2VecConfig config;
    config.epochs = 7;
    config.alpha = 0.05;
    Word2VecTrainer trainer(m_corpus, CorpusConfig{}, config);
    const WordVectors initial = trainer.vectors();
    // word2vec.c's initialisation: inputs uniform in (-0.5, 0.5) / dimensions.
    QVERIFY(std::all_of(initial.values.begin(), initial.values.end(),
                        [](float v) { return std::abs(v) <= 0.5f / 50; }));
    QCOMPARE(initial.counts, m_corpus.counts);

    std::vector<Word2VecProgress> reports;
    std::vector<Word2VecEpoch> epochs;
    trainer.train({[&](const Word2VecProgress &p) { reports.push_back(p); },
                   [&](const Word2VecEpoch &e) { epochs.push_back(e); }});
    QCOMPARE(int(epochs.size()), 7);
    QVERIFY(reports.size() >= 7);
    const int64_t total = int64_t(m_corpus.tokens.size()) * 7;
    for (size_t r = 0; r < reports.size(); ++r) {
        QCOMPARE(reports[r].wordsTotal, total);
        QVERIFY(reports[r].loss > 0);
        QVERIFY(reports[r].wordsPerSecond > 0);
        if (r > 0) {
            QVERIFY(reports[r].wordsDone > reports[r - 1].wordsDone);
            QVERIFY(reports[r].alpha < reports[r - 1].alpha);
        }
    }
    QCOMPARE(reports.back().wordsDone, total);
    QCOMPARE(reports.back().epoch, 7);
    QVERIFY(std::abs(reports.back().alpha - 0.05 * 1e-4) < 1e-12);  // decayed to alpha * 1e-4
    for (size_t e = 0; e < epochs.size(); ++e) {
        QCOMPARE(epochs[e].epoch, int(e) + 1);
        QCOMPARE(epochs[e].tokensKept, int64_t(m_corpus.tokens.size()));  // no subsampling by default
        QVERIFY(epochs[e].pairs > 0 && epochs[e].loss > 0 && epochs[e].seconds > 0);
    }
}

// The course's exercise: every position takes its whole window, so an epoch trains exactly the
// pairs within `window` words in each line, and the rate stays at alpha.
void TestWord2VecTrainer::wholeWindowAndConstantRateAsTheCourseTrains()
{
    Word2VecConfig config;
    config.window = 2;
    config.wholeWindow = true;
    config.constantRate = true;
    config.epochs = 3;
    config.threads = 1;
    config.alpha = 0.05;
    int64_t allPairs = 0;
    for (int line = 0; line < m_corpus.lines(); ++line) {
        const int64_t n = m_corpus.lineStarts[size_t(line) + 1] - m_corpus.lineStarts[size_t(line)];
        for (int64_t i = 0; i < n; ++i)
            allPairs += std::min<int64_t>(i, 2) + std::min<int64_t>(n - 1 - i, 2);
    }
    QCOMPARE(previewCorpus(m_corpus, CorpusConfig{}, config).pairsPerEpoch, double(allPairs));

    Word2VecTrainer trainer(m_corpus, CorpusConfig{}, config);
    std::vector<Word2VecProgress> reports;
    std::vector<Word2VecEpoch> epochs;
    trainer.train({[&](const Word2VecProgress &p) { reports.push_back(p); },
                   [&](const Word2VecEpoch &e) { epochs.push_back(e); }});
    QCOMPARE(int(epochs.size()), 3);
    for (const Word2VecEpoch &e : epochs)
        QCOMPARE(e.pairs, allPairs);
    QVERIFY(!reports.empty());
    for (const Word2VecProgress &p : reports)
        QCOMPARE(p.alpha, 0.05);

    // Drawn windows reach fewer pairs; a decaying rate falls.
    config.wholeWindow = false;
    config.constantRate = false;
    Word2VecTrainer drawn(m_corpus, CorpusConfig{}, config);
    epochs.clear();
    reports.clear();
    drawn.train({[&](const Word2VecProgress &p) { reports.push_back(p); },
                 [&](const Word2VecEpoch &e) { epochs.push_back(e); }});
    QVERIFY(epochs.front().pairs < allPairs);
    QVERIFY(reports.back().alpha < 0.05);
}

// --init-std 0.1: every value starts from N(0, 0.1), the same for a seed; 0 keeps word2vec.c's start.
void TestWord2VecTrainer::theCoursesNormalStart()
{
    Word2VecConfig config;
    config.initStd = 0.1;
    const std::vector<float> values = Word2VecTrainer(m_corpus, CorpusConfig{}, config).vectors().values;
    QCOMPARE(Word2VecTrainer(m_corpus, CorpusConfig{}, config).vectors().values, values);
    double sum = 0, squares = 0;
    float largest = 0;
    for (float v : values) {
        sum += v;
        squares += double(v) * v;
        largest = std::max(largest, std::abs(v));
    }
    const double n = double(values.size()), mean = sum / n, std = std::sqrt(squares / n - mean * mean);
    QVERIFY2(values.size() > 1000, qPrintable(QString::number(values.size())));
    QVERIFY2(std::abs(mean) < 0.01 && std::abs(std - 0.1) < 0.01, qPrintable(QString("%1 %2").arg(mean).arg(std)));
    QVERIFY(largest > 0.5f / 50);  // beyond word2vec.c's uniform range
    config.initStd = 0;
    for (float v : Word2VecTrainer(m_corpus, CorpusConfig{}, config).vectors().values)
        QVERIFY(std::abs(v) <= 0.5f / 50);
}

void TestWord2VecTrainer::stopEndsTrainingBetweenRounds()
{
    Word2VecConfig config;
    Word2VecTrainer trainer(m_corpus, CorpusConfig{}, config);
    std::atomic<bool> stop{false};
    int reports = 0;
    int64_t wordsDone = 0;
    const std::vector<Word2VecEpoch> epochs = trainer.train(
        {[&](const Word2VecProgress &p) {
             ++reports;
             wordsDone = p.wordsDone;
             if (p.epoch == 3)
                 stop = true;
         },
         {}},
        &stop);
    // The corpus is one round an epoch: the round that saw the stop was the last.
    QCOMPARE(int(epochs.size()), 2);
    QCOMPARE(reports, 3);
    QCOMPARE(wordsDone, 3 * int64_t(m_corpus.tokens.size()));

    // Stopped before it starts, training leaves the vectors as they were.
    const WordVectors before = trainer.vectors();
    QVERIFY(trainer.train({}, &stop).empty());
    QCOMPARE(trainer.vectors().values, before.values);
}

void TestWord2VecTrainer::refusesWhatCannotBeTrained_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("dimensions");
    QTest::addColumn<int>("window");
    QTest::addColumn<QString>("message");
    QTest::newRow("fewer words than dimensions")
        << "the cat sat on the mat" << 50 << 4 << "fewer than the 50 dimensions";
    QTest::newRow("dimensions out of range") << "a b c" << 1 << 4 << "dimensions";
    QTest::newRow("window out of range") << "a b c" << 2 << 21 << "window";
}

void TestWord2VecTrainer::refusesWhatCannotBeTrained()
{
    QFETCH(QString, text);
    QFETCH(int, dimensions);
    QFETCH(int, window);
    QFETCH(QString, message);
    const WordCorpus corpus = buildWordCorpus(text.toStdString(), CorpusConfig{});
    Word2VecConfig config;
    config.dimensions = dimensions;
    config.window = window;
    try {
        Word2VecTrainer trainer(corpus, CorpusConfig{}, config);
        QFAIL("accepted");
    } catch (const std::invalid_argument &error) {
        QVERIFY2(QString(error.what()).contains(message), error.what());
    }
}

ATTNSCOPE_TEST(word2vectrainer, TestWord2VecTrainer)
#include "tst_word2vectrainer.moc"
