#include "tests/common/testregistry.h"
#include "engine/attention/beamevaluation.h"
#include "engine/core/beamsearch.h"
#include "engine/attention/outputlogprob.h"
#include "engine/core/tokenizer.h"
#include "tests/common/attentionkindname.h"
#include "tests/common/tinymodel.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <memory>

namespace {

// Token ids of the hand-built models: the four specials, then four words.
constexpr int kA = 4, kB = 5, kC = 6, kD = 7;
constexpr int kToyVocabularySize = 8;

using Distribution = std::map<int, double>;  // next token -> probability; unlisted tokens: 0

// A model given by the distribution of the next token after each prefix. It keeps each row's
// prefix the way a network keeps its state, reordered by the parents the search passes, so a
// wrong parent reads the wrong row. Its attention row is {step, last token}, so a test can see
// that every hypothesis carries the rows of its own history.
class PrefixModel
{
public:
    explicit PrefixModel(std::function<Distribution(const std::vector<int> &prefix)> next) : m_next(std::move(next)) {}

    BeamStepFunction stepFunction()
    {
        return [this](const std::vector<int> &parents, const std::vector<int> &lastTokens) {
            std::vector<std::vector<int>> prefixes;
            BeamScores scores;
            for (std::size_t i = 0; i < parents.size(); ++i) {
                std::vector<int> prefix = m_prefixes.at(std::size_t(parents[i]));
                if (lastTokens[i] != Vocabulary::kSos)
                    prefix.push_back(lastTokens[i]);
                std::vector<float> row(kToyVocabularySize, -std::numeric_limits<float>::infinity());
                for (const auto &[token, p] : m_next(prefix))
                    row[std::size_t(token)] = float(std::log(p));
                scores.logProbs.insert(scores.logProbs.end(), row.begin(), row.end());
                scores.attention.push_back(float(m_steps));
                scores.attention.push_back(float(lastTokens[i]));
                prefixes.push_back(std::move(prefix));
            }
            m_prefixes = std::move(prefixes);
            m_widestBatch = std::max(m_widestBatch, int(parents.size()));
            ++m_steps;
            return scores;
        };
    }

    int widestBatch() const { return m_widestBatch; }

private:
    std::function<Distribution(const std::vector<int> &)> m_next;
    std::vector<std::vector<int>> m_prefixes{{}};
    int m_steps = 0;
    int m_widestBatch = 0;
};

PrefixModel tableModel(const std::map<std::vector<int>, Distribution> &table)
{
    return PrefixModel([table](const std::vector<int> &prefix) {
        const auto found = table.find(prefix);
        if (found == table.end())
            throw std::logic_error("the search extended a prefix the table does not have");
        return found->second;
    });
}

// Greedy takes A (0.6), but every continuation of A is at most 0.4 likely, while B (0.4) ends
// with probability 0.9: P(A C <EOS>) = 0.24 < P(B <EOS>) = 0.36.
const std::map<std::vector<int>, Distribution> kGreedyTrap = {
    {{}, {{kA, 0.6}, {kB, 0.4}}},
    {{kA}, {{kC, 0.4}, {kD, 0.3}, {Vocabulary::kEos, 0.3}}},
    {{kA, kC}, {{Vocabulary::kEos, 1.0}}},
    {{kA, kD}, {{Vocabulary::kEos, 1.0}}},
    {{kB}, {{Vocabulary::kEos, 0.9}, {kC, 0.1}}},
    {{kB, kC}, {{Vocabulary::kEos, 1.0}}},
};

// A short and a long hypothesis: <EOS> at once (0.5), or A B <EOS> (0.5 * 0.9 * 0.9 = 0.405).
const std::map<std::vector<int>, Distribution> kShortOrLong = {
    {{}, {{Vocabulary::kEos, 0.5}, {kA, 0.5}}},
    {{kA}, {{kB, 0.9}, {Vocabulary::kEos, 0.1}}},
    {{kA, kB}, {{Vocabulary::kEos, 0.9}, {kC, 0.1}}},
    {{kA, kB, kC}, {{Vocabulary::kEos, 1.0}}},
};

BeamOptions beamOptions(int width, double alpha, int nbest)
{
    BeamOptions o;
    o.width = width;
    o.alpha = alpha;
    o.nbest = nbest;
    return o;
}

void addVariantRows()
{
    QTest::addColumn<QString>("variant");
    for (const char *name : {"bahdanau", "luong-dot", "luong-general", "none", "location", "scaled-dot", "bahdanau-after",
                             "bahdanau, lstm", "luong-dot, rnn"})
        QTest::newRow(name) << QString(name);
}

bool endsWithEos(const DecodedSentence &s)
{
    return !s.outputTokens.empty() && s.outputTokens.back() == "<EOS>";
}

}

// Beam search with length normalisation: the algorithm on hand-built distributions where the
// right answer is known, and on trained models of every attention variant, where width 1 must
// be greedy decoding and every hypothesis's score must be what the model says of it.
class TestBeamSearch : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void widthOneIsGreedyDecoding_data() { addVariantRows(); }
    void widthOneIsGreedyDecoding();
    void beamFindsWhatGreedyMisses();
    void alphaChangesTheWinnerAsTheFormulaSays_data();
    void alphaChangesTheWinnerAsTheFormulaSays();
    void nbestIsSortedFiniteAndComplete_data() { addVariantRows(); }
    void nbestIsSortedFiniteAndComplete();
    void maximumLengthEndsHypotheses();
    void badOptionsAreRefused_data();
    void badOptionsAreRefused();
    void evaluationSetsEachSettingBesideGreedy();

private:
    Dataset m_data;
    std::map<QString, std::unique_ptr<Seq2SeqModel>> m_models;
};

void TestBeamSearch::initTestCase()
{
    m_data = Dataset::build(quickDataset());
    const Vocabulary vocabulary = Vocabulary::build(m_data.train);
    // The GRU with every variant; an LSTM, whose cell states the search reorders too, and a tanh RNN.
    const std::pair<const char *, RecurrentCell> models[] = {
        {"bahdanau", RecurrentCell::Gru},     {"luong-dot", RecurrentCell::Gru}, {"luong-general", RecurrentCell::Gru},
        {"none", RecurrentCell::Gru},         {"location", RecurrentCell::Gru},  {"scaled-dot", RecurrentCell::Gru},
        {"bahdanau-after", RecurrentCell::Gru}, {"bahdanau", RecurrentCell::Lstm}, {"luong-dot", RecurrentCell::Rnn}};
    for (const auto &[kind, cell] : models) {
        const QString name = cell == RecurrentCell::Gru ? QString(kind) : QString("%1, %2").arg(kind, cellName(cell));
        ModelConfig config = quickModelConfig();
        config.attention = kindOf(kind);
        config.cell = cell;
        config.layers = 2;  // so the search reorders more than one layer's state
        auto model = std::make_unique<Seq2SeqModel>(config, vocabulary, 1);
        model->datasetConfig = quickDataset();
        Trainer(*model, m_data, quickTraining(20)).run();
        m_models[name] = std::move(model);
    }
}

void TestBeamSearch::widthOneIsGreedyDecoding()
{
    QFETCH(QString, variant);
    const Seq2SeqModel &model = *m_models[variant];
    std::vector<std::vector<std::string>> sources{tokenize("red zebra cat fish", true), tokenize("", true)};
    for (const SentencePair &p : m_data.test)
        sources.push_back(p.source);
    for (const auto &source : sources) {
        const DecodedSentence greedy = model.decode(source);
        const BeamDecoded beam = model.beamDecode(source, beamOptions(1, 0.6, 1));
        QCOMPARE(beam.nbest.size(), std::size_t(1));
        const DecodedSentence &best = beam.nbest.front().sentence;
        QCOMPARE(best.sourceTokens, greedy.sourceTokens);
        QCOMPARE(best.outputTokens, greedy.outputTokens);
        QCOMPARE(best.outputCopied, greedy.outputCopied);
        // Greedy decodes one sentence through InferenceNet: the same attention up to float rounding.
        QCOMPARE(best.attention.size(), greedy.attention.size());
        for (std::size_t i = 0; i < best.attention.size(); ++i)
            QVERIFY(std::abs(best.attention[i] - greedy.attention[i]) < 1e-5f);
        QCOMPARE(beam.steps.size(), greedy.outputTokens.size());
    }
}

void TestBeamSearch::beamFindsWhatGreedyMisses()
{
    PrefixModel greedyModel = tableModel(kGreedyTrap);
    const BeamResult greedy = beamSearch(greedyModel.stepFunction(), beamOptions(1, 0.0, 1), 10);
    QCOMPARE(greedy.nbest.size(), std::size_t(1));
    QCOMPARE(greedy.nbest[0].tokens, (std::vector<int>{kA, kC, Vocabulary::kEos}));
    QVERIFY(std::abs(greedy.nbest[0].logProb - std::log(0.6 * 0.4)) < 1e-6);

    PrefixModel beamModel = tableModel(kGreedyTrap);
    const BeamResult beam = beamSearch(beamModel.stepFunction(), beamOptions(2, 0.0, 2), 10);
    QCOMPARE(beamModel.widestBatch(), 2);
    QCOMPARE(beam.nbest.size(), std::size_t(2));
    QCOMPARE(beam.nbest[0].tokens, (std::vector<int>{kB, Vocabulary::kEos}));
    QVERIFY(std::abs(beam.nbest[0].logProb - std::log(0.4 * 0.9)) < 1e-6);
    QCOMPARE(beam.nbest[1].tokens, (std::vector<int>{kA, kC, Vocabulary::kEos}));

    // What was kept: A and B; then B <EOS> (finished) and A C; then A C <EOS>.
    QCOMPARE(beam.steps.size(), std::size_t(3));
    const auto keptTokens = [&](std::size_t step) {
        std::vector<std::vector<int>> tokens;
        for (const BeamStepEntry &e : beam.steps[step].kept)
            tokens.push_back(e.tokens);
        return tokens;
    };
    QCOMPARE(keptTokens(0), (std::vector<std::vector<int>>{{kA}, {kB}}));
    QCOMPARE(keptTokens(1), (std::vector<std::vector<int>>{{kB, Vocabulary::kEos}, {kA, kC}}));
    QCOMPARE(keptTokens(2), (std::vector<std::vector<int>>{{kA, kC, Vocabulary::kEos}}));
    QVERIFY(beam.steps[1].kept[0].finished && !beam.steps[1].kept[1].finished);

    // Each hypothesis carries the attention rows of its own steps: {step, token read}.
    for (const BeamHypothesis &h : beam.nbest) {
        QCOMPARE(h.attention.size(), 2 * h.tokens.size());
        for (std::size_t t = 0; t < h.tokens.size(); ++t) {
            QCOMPARE(h.attention[2 * t], float(t));
            QCOMPARE(h.attention[2 * t + 1], float(t == 0 ? Vocabulary::kSos : h.tokens[t - 1]));
        }
    }
}

void TestBeamSearch::alphaChangesTheWinnerAsTheFormulaSays_data()
{
    QTest::addColumn<double>("alpha");
    QTest::addColumn<bool>("longWins");  // what the formula gives, written out: the ranking must flip
    QTest::newRow("alpha 0: sum of log-probabilities") << 0.0 << false;
    QTest::newRow("alpha 0.2") << 0.2 << false;
    QTest::newRow("alpha 0.3") << 0.3 << true;
    QTest::newRow("alpha 0.6 (default)") << 0.6 << true;
    QTest::newRow("alpha 1: mean per token") << 1.0 << true;
}

void TestBeamSearch::alphaChangesTheWinnerAsTheFormulaSays()
{
    QFETCH(double, alpha);
    QFETCH(bool, longWins);
    const double shortLogProb = std::log(0.5);
    const double longLogProb = std::log(0.5) + std::log(0.9) + std::log(0.9);
    const double shortScore = shortLogProb / std::pow(1.0, alpha);
    const double longScore = longLogProb / std::pow(3.0, alpha);
    QCOMPARE(longScore > shortScore, longWins);

    PrefixModel model = tableModel(kShortOrLong);
    const BeamResult result = beamSearch(model.stepFunction(), beamOptions(2, alpha, 2), 10);
    QCOMPARE(result.nbest.size(), std::size_t(2));
    const std::vector<int> shortTokens{Vocabulary::kEos}, longTokens{kA, kB, Vocabulary::kEos};
    QCOMPARE(result.nbest[0].tokens, longWins ? longTokens : shortTokens);
    QCOMPARE(result.nbest[1].tokens, longWins ? shortTokens : longTokens);
    const BeamHypothesis &shortOne = result.nbest[longWins ? 1 : 0];
    const BeamHypothesis &longOne = result.nbest[longWins ? 0 : 1];
    QVERIFY(std::abs(shortOne.logProb - shortLogProb) < 1e-6);
    QVERIFY(std::abs(longOne.logProb - longLogProb) < 1e-6);
    QVERIFY(std::abs(shortOne.score - shortScore) < 1e-6);
    QVERIFY(std::abs(longOne.score - longScore) < 1e-6);
}

void TestBeamSearch::nbestIsSortedFiniteAndComplete()
{
    QFETCH(QString, variant);
    const Seq2SeqModel &model = *m_models[variant];
    const BeamOptions options = beamOptions(5, 0.6, 5);
    for (const char *sentence : {"red cat dog", "fish blue green red", "zebra cat"}) {
        const BeamDecoded decoded = model.beamReverse(sentence, options);
        const std::size_t words = tokenize(sentence, true).size();
        // Finished hypotheses keep their slots, so the search ends with `width` of them.
        QCOMPARE(decoded.nbest.size(), std::size_t(5));
        for (std::size_t i = 0; i < decoded.nbest.size(); ++i) {
            const ScoredSentence &h = decoded.nbest[i];
            QVERIFY(std::isfinite(h.score) && std::isfinite(h.logProb) && h.logProb <= 0);
            if (i > 0)
                QVERIFY(decoded.nbest[i - 1].score >= h.score);
            const std::size_t length = h.sentence.outputTokens.size();
            QVERIFY(std::abs(h.score - h.logProb / std::pow(double(length), options.alpha)) < 1e-9);
            QVERIFY2(endsWithEos(h.sentence) || length == 2 * words + 5, sentence);
            for (std::size_t t = 0; t + 1 < length; ++t)
                QVERIFY(h.sentence.outputTokens[t] != "<EOS>");
            // The search's sum is what the model gives the sentence under teacher forcing; a
            // hypothesis continued from another's state would not match.
            const double forced = outputLogProbs(model, {tokenize(sentence, true)}, h.sentence).front();
            QVERIFY2(std::abs(h.logProb - forced) < 1e-3, sentence);
            if (model.hasAttention()) {
                QCOMPARE(h.sentence.attention.size(), length * h.sentence.sourceTokens.size());
                for (int r = 0; r < h.sentence.rows(); ++r) {
                    double sum = 0;
                    for (int c = 0; c < h.sentence.columns(); ++c)
                        sum += h.sentence.weight(r, c);
                    QVERIFY(std::abs(sum - 1.0) < 1e-5);
                }
            } else {
                QVERIFY(h.sentence.attention.empty());
            }
        }
        for (const BeamStep &step : decoded.steps)
            QVERIFY(!step.kept.empty() && step.kept.size() <= std::size_t(options.width));
    }
}

void TestBeamSearch::maximumLengthEndsHypotheses()
{
    // A model that never ends a sentence: every hypothesis stops at the maximum length.
    PrefixModel endless([](const std::vector<int> &) { return Distribution{{kA, 0.5}, {kB, 0.3}, {kC, 0.2}}; });
    const BeamResult result = beamSearch(endless.stepFunction(), beamOptions(3, 1.0, 3), 4);
    QCOMPARE(result.nbest.size(), std::size_t(3));
    QCOMPARE(result.nbest[0].tokens, (std::vector<int>{kA, kA, kA, kA}));
    for (std::size_t i = 0; i < result.nbest.size(); ++i) {
        QCOMPARE(result.nbest[i].tokens.size(), std::size_t(4));
        QVERIFY(std::isfinite(result.nbest[i].score));
        if (i > 0)
            QVERIFY(result.nbest[i - 1].score >= result.nbest[i].score);
    }
    QCOMPARE(result.steps.size(), std::size_t(4));
}

void TestBeamSearch::badOptionsAreRefused_data()
{
    QTest::addColumn<int>("width");
    QTest::addColumn<double>("alpha");
    QTest::addColumn<int>("nbest");
    QTest::addColumn<int>("maxLength");
    QTest::addColumn<QString>("message");
    QTest::newRow("width 0") << 0 << 0.6 << 1 << 10 << "beam width";
    QTest::newRow("width 65") << kMaxBeamWidth + 1 << 0.6 << 1 << 10 << "beam width";
    QTest::newRow("negative alpha") << 5 << -0.1 << 1 << 10 << "alpha";
    QTest::newRow("alpha 2.5") << 5 << 2.5 << 1 << 10 << "alpha";
    QTest::newRow("NaN alpha") << 5 << std::nan("") << 1 << 10 << "alpha";
    QTest::newRow("n-best 0") << 5 << 0.6 << 0 << 10 << "n-best";
    QTest::newRow("n-best above width") << 2 << 0.6 << 3 << 10 << "n-best";
    QTest::newRow("max length 0") << 2 << 0.6 << 1 << 0 << "maximum length";
}

void TestBeamSearch::badOptionsAreRefused()
{
    QFETCH(int, width);
    QFETCH(double, alpha);
    QFETCH(int, nbest);
    QFETCH(int, maxLength);
    QFETCH(QString, message);
    const BeamOptions options = beamOptions(width, alpha, nbest);
    bool stepped = false;
    const BeamStepFunction neverCalled = [&stepped](const std::vector<int> &, const std::vector<int> &) {
        stepped = true;
        return BeamScores{};
    };
    try {
        beamSearch(neverCalled, options, maxLength);
        QFAIL("beamSearch accepted bad options");
    } catch (const std::invalid_argument &e) {
        QVERIFY2(QString(e.what()).contains(message), e.what());
    }
    QVERIFY(!stepped);
    if (maxLength > 0)
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, m_models["bahdanau"]->beamReverse("red cat", options));
}

// evaluateBeams' figures, each recomputed from decodes of its own: greedy first, added when not
// asked; exact match, mean log P and length over the sentences; every sentence that differs listed.
void TestBeamSearch::evaluationSetsEachSettingBesideGreedy()
{
    const Seq2SeqModel &model = *m_models["bahdanau"];
    const std::vector<SentencePair> &data = m_data.test;
    const std::vector<BeamSetting> asked{{5, 1.0}, {2, 0.0}};
    std::vector<int> progress;
    const BeamEvaluation e = evaluateBeams(model, data, asked, [&](int done, int total) {
        progress.push_back(done);
        return total == int(data.size());
    });
    QCOMPARE(e.sentences, int(data.size()));
    QCOMPARE(int(progress.size()), int(data.size()));
    QCOMPARE(*std::max_element(progress.begin(), progress.end()), int(data.size()));
    QCOMPARE(e.settings.size(), std::size_t(3));
    QCOMPARE(e.settings[0].width, 1);
    QCOMPARE(e.settings[1].width, 5);
    QCOMPARE(e.settings[2].width, 2);
    std::size_t disagreement = 0;
    std::vector<double> exact(3), logProb(3), length(3);
    std::vector<int> differ(3);
    for (const SentencePair &p : data) {
        std::vector<std::vector<std::string>> outputs;
        for (std::size_t s = 0; s < 3; ++s) {
            const ScoredSentence best = model.beamDecode(p.source, beamOptions(e.settings[s].width, e.settings[s].alpha, 1)).nbest.front();
            outputs.push_back(best.sentence.words());
            exact[s] += outputs[s] == p.target;
            logProb[s] += best.logProb;
            length[s] += double(outputs[s].size());
            differ[s] += outputs[s] != outputs[0];
        }
        QCOMPARE(outputs[0], model.decode(p.source).words());
        if (outputs[1] != outputs[0] || outputs[2] != outputs[0]) {
            QVERIFY(disagreement < e.disagreements.size());
            const BeamDisagreement &d = e.disagreements[disagreement++];
            QCOMPARE(d.input, joinTokens(p.source));
            QCOMPARE(d.reference, joinTokens(p.target));
            for (std::size_t s = 0; s < 3; ++s)
                QCOMPARE(d.outputs[s], joinTokens(outputs[s]));
        }
    }
    QCOMPARE(disagreement, e.disagreements.size());
    const double n = double(data.size());
    for (std::size_t s = 0; s < 3; ++s) {
        QVERIFY(std::abs(e.scores[s].exactMatch - exact[s] / n) < 1e-12);
        QVERIFY(std::abs(e.scores[s].meanLogProb - logProb[s] / n) < 1e-4);
        QVERIFY(std::abs(e.scores[s].meanLength - length[s] / n) < 1e-12);
        QCOMPARE(e.scores[s].differFromGreedy, differ[s]);
    }

    // Stopped after the first sentence: only what was decoded is counted.
    const BeamEvaluation stopped = evaluateBeams(model, data, asked, [](int, int) { return false; });
    QVERIFY(stopped.sentences >= 1 && stopped.sentences <= 2);  // one per decoding thread at most

    const std::vector<BeamSetting> &course = courseBeamSettings();
    QCOMPARE(course.size(), std::size_t(10));
    QCOMPARE(course.front().width, 1);
    QCOMPARE(course.back().width, 10);
    QCOMPARE(course.back().alpha, 1.0);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, evaluateBeams(model, data, {{0, 0.6}}));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, evaluateBeams(model, data, {{2, -1.0}}));
}

ATTNSCOPE_TEST(beamsearch, TestBeamSearch)
#include "tst_beamsearch.moc"

