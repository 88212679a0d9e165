#include "tests/common/testregistry.h"
#include "tests/common/tinytransformer.h"
#include "engine/core/vocabulary.h"
#include "engine/transformer/transformerbeamsearch.h"
#include "engine/transformer/transformermodel.h"
#include "engine/transformer/transformernet.h"

#include <QtTest>

#include <cmath>
#include <memory>
#include <set>

namespace {

constexpr double kBeamTolerance = 1e-5;
// Eight words and the four specials: a beam can be wider than the vocabulary.
const std::vector<std::string> kBeamWords{"a", "b", "c", "d", "e", "f", "g", "h"};
constexpr int kBeamVocabularySize = 12;

TransformerConfig beamConfig(bool preNorm, PositionEncoding positions)
{
    TransformerConfig config = tinyTransformer(2, 4, 16, 24);
    config.preNorm = preNorm;
    config.positions = positions;
    config.maxPositions = 32;
    return config;
}

// Weights wide enough that the untrained model's choices are far from ties.
void scrambleWeights(torch::nn::Module &module)
{
    torch::NoGradGuard noGrad;
    for (torch::Tensor &parameter : module.parameters())
        parameter.uniform_(-0.5, 0.5);
}

TransformerNet randomNet(bool preNorm = true, PositionEncoding positions = PositionEncoding::Sinusoidal)
{
    torch::manual_seed(11);
    TransformerNet net(beamConfig(preNorm, positions), kBeamVocabularySize);
    scrambleWeights(*net);
    net->eval();
    return net;
}

// The beam's step without a cache: every live hypothesis's whole prefix through the decoder again
// (TransformerNetImpl::decode), its last position's log-probabilities and attention packed as
// DecodingStep::attention packs them.
class UncachedSteps
{
public:
    UncachedSteps(TransformerNetImpl &net, const std::vector<int> &sourceIds) : m_net(net)
    {
        const auto length = int64_t(sourceIds.size());
        const torch::Tensor source =
            torch::tensor(std::vector<int64_t>(sourceIds.begin(), sourceIds.end())).view({1, length});
        torch::NoGradGuard noGrad;
        m_encoded = net.encode(source, torch::ones({1, length}, torch::kBool));
    }

    BeamStepFunction function()
    {
        return [this](const std::vector<int> &parents, const std::vector<int> &lastTokens) {
            torch::NoGradGuard noGrad;
            std::vector<std::vector<int64_t>> prefixes;
            for (std::size_t i = 0; i < parents.size(); ++i) {
                std::vector<int64_t> prefix =
                    m_prefixes.empty() ? std::vector<int64_t>{} : m_prefixes[std::size_t(parents[i])];
                prefix.push_back(lastTokens[i]);
                prefixes.push_back(std::move(prefix));
            }
            m_prefixes = prefixes;
            BeamScores scores;
            for (const std::vector<int64_t> &prefix : prefixes) {
                const auto length = int64_t(prefix.size());
                TransformerAttention attention;
                const torch::Tensor logits =
                    m_net.decode(m_encoded, torch::tensor(prefix).view({1, length}), &attention);
                const torch::Tensor logProbs = torch::log_softmax(logits[0][length - 1], -1).contiguous();
                scores.logProbs.insert(scores.logProbs.end(), logProbs.data_ptr<float>(),
                                       logProbs.data_ptr<float>() + logProbs.numel());
                for (const auto *layers : {&attention.cross, &attention.decoderSelf})
                    for (const torch::Tensor &layer : *layers) {
                        const torch::Tensor last = layer[0].select(1, length - 1).contiguous();  // (h, columns)
                        scores.attention.insert(scores.attention.end(), last.data_ptr<float>(),
                                                last.data_ptr<float>() + last.numel());
                    }
            }
            return scores;
        };
    }

private:
    TransformerNetImpl &m_net;
    EncodedSource m_encoded;
    std::vector<std::vector<int64_t>> m_prefixes;
};

BeamOptions beamOptions(int width, double alpha, int nbest)
{
    BeamOptions options;
    options.width = width;
    options.alpha = alpha;
    options.nbest = nbest;
    return options;
}

double largestWeightDifference(const LayeredAttention &a, const LayeredAttention &b)
{
    if (a.rows != b.rows || a.columns != b.columns || a.weights.size() != b.weights.size())
        return INFINITY;
    double largest = 0;
    for (std::size_t l = 0; l < a.weights.size(); ++l)
        for (std::size_t h = 0; h < a.weights[l].size(); ++h) {
            if (a.weights[l][h].size() != b.weights[l][h].size())
                return INFINITY;
            for (std::size_t i = 0; i < a.weights[l][h].size(); ++i)
                largest = std::max(largest, double(std::abs(a.weights[l][h][i] - b.weights[l][h][i])));
        }
    return largest;
}

bool endsOnlyAtTheEnd(const std::vector<int> &tokens)
{
    for (std::size_t i = 0; i + 1 < tokens.size(); ++i)
        if (tokens[i] == Vocabulary::kEos)
            return false;
    return true;
}

}  // namespace

// Beam search with the key/value cache (transformerbeamsearch.h) against the same search with a
// step that runs the whole prefix again through LibTorch's decoder, and against greedy decoding;
// its n-best list, <EOS>, a beam wider than the vocabulary, an empty sentence, bad input.
class TestTransformerBeam : public QObject
{
    Q_OBJECT
private slots:
    void cachedBeamEqualsUncachedBeam_data();
    void cachedBeamEqualsUncachedBeam();
    void widthOneIsGreedyDecoding();
    void nbestIsSortedByScore();
    void finishedHypothesesEndInEosAndNarrowTheBeam();
    void beamWiderThanTheVocabulary();
    void emptySentence();
    void badInputIsRefusedClearly();
};

void TestTransformerBeam::cachedBeamEqualsUncachedBeam_data()
{
    QTest::addColumn<bool>("preNorm");
    QTest::addColumn<bool>("learned");
    QTest::addColumn<int>("width");
    QTest::addColumn<double>("alpha");
    QTest::addColumn<QVector<int>>("source");
    QTest::newRow("pre-LN, sinusoidal, width 3") << true << false << 3 << 0.6 << QVector<int>{5, 9, 6, 2};
    QTest::newRow("post-LN, learned, width 4") << false << true << 4 << 1.0 << QVector<int>{7, 4, 11, 8, 10, 2};
    QTest::newRow("pre-LN, width 5, no normalisation") << true << false << 5 << 0.0 << QVector<int>{4, 4, 6, 2};
    QTest::newRow("empty sentence") << true << true << 3 << 0.6 << QVector<int>{2};
}

void TestTransformerBeam::cachedBeamEqualsUncachedBeam()
{
    QFETCH(bool, preNorm);
    QFETCH(bool, learned);
    QFETCH(int, width);
    QFETCH(double, alpha);
    QFETCH(QVector<int>, source);
    TransformerNet net = randomNet(preNorm, learned ? PositionEncoding::Learned : PositionEncoding::Sinusoidal);
    const TransformerInference inference(*net);
    const std::vector<int> ids(source.begin(), source.end());
    const int maxSteps = int(ids.size()) + 3;
    const BeamOptions options = beamOptions(width, alpha, width);

    const TransformerBeam cached = transformerBeamSearch(inference, ids, options, maxSteps, true);
    UncachedSteps uncached(*net, ids);
    const BeamResult expected = beamSearch(uncached.function(), options, maxSteps);

    QCOMPARE(cached.nbest.size(), expected.nbest.size());
    QCOMPARE(int(cached.nbest.size()), width);
    for (std::size_t i = 0; i < expected.nbest.size(); ++i) {
        const TransformerHypothesis &ours = cached.nbest[i];
        const BeamHypothesis &theirs = expected.nbest[i];
        QCOMPARE(ours.decoded.output, theirs.tokens);
        QVERIFY(std::abs(ours.logProb - theirs.logProb) < kBeamTolerance);
        QVERIFY(std::abs(ours.score - theirs.score) < kBeamTolerance);
        // Weight for weight: the uncached step's attention, unpacked the same way.
        DecodedIds theirAttention;
        inference.unpackAttention(theirs.attention, int(theirs.tokens.size()), int(ids.size()), theirAttention);
        QVERIFY(largestWeightDifference(ours.decoded.cross, theirAttention.cross) < kBeamTolerance);
        QVERIFY(largestWeightDifference(ours.decoded.decoderSelf, theirAttention.decoderSelf) < kBeamTolerance);
        QCOMPARE(ours.decoded.encoderSelf.rows, int(ids.size()));
    }
    QCOMPARE(cached.steps.size(), expected.steps.size());
    for (std::size_t t = 0; t < expected.steps.size(); ++t) {
        QCOMPARE(cached.steps[t].kept.size(), expected.steps[t].kept.size());
        for (std::size_t k = 0; k < expected.steps[t].kept.size(); ++k) {
            QCOMPARE(cached.steps[t].kept[k].tokens, expected.steps[t].kept[k].tokens);
            QCOMPARE(cached.steps[t].kept[k].finished, expected.steps[t].kept[k].finished);
            QVERIFY(std::abs(cached.steps[t].kept[k].logProb - expected.steps[t].kept[k].logProb) < kBeamTolerance);
        }
    }
}

void TestTransformerBeam::widthOneIsGreedyDecoding()
{
    TransformerNet net = randomNet();
    const TransformerInference inference(*net);
    for (const std::vector<int> &ids : {std::vector<int>{5, 9, 6, 2}, std::vector<int>{11, 10, 9, 8, 7, 6, 5, 2}}) {
        const DecodedIds greedy = inference.decode(ids, int(ids.size()) + 1, true);
        for (double alpha : {0.0, 0.6}) {
            const TransformerBeam beam =
                transformerBeamSearch(inference, ids, beamOptions(1, alpha, 1), int(ids.size()) + 1, true);
            QCOMPARE(beam.nbest.size(), std::size_t(1));
            const DecodedIds &best = beam.nbest.front().decoded;
            QCOMPARE(best.output, greedy.output);
            // The same arithmetic, one row per step: equal to the bit.
            QCOMPARE(largestWeightDifference(best.encoderSelf, greedy.encoderSelf), 0.0);
            QCOMPARE(largestWeightDifference(best.decoderSelf, greedy.decoderSelf), 0.0);
            QCOMPARE(largestWeightDifference(best.cross, greedy.cross), 0.0);
        }
    }

    // And through the model, in words.
    TransformerModel model(beamConfig(true, PositionEncoding::Sinusoidal), Vocabulary(kBeamWords), Task::Reverse, 3);
    scrambleWeights(model.net());
    const std::vector<std::string> words{"c", "a", "h", "zebra"};
    const TransformerOutput greedy = model.decode(words);
    const TransformerBeamOutput beam = model.beamDecode(words, beamOptions(1, 0.6, 1));
    QCOMPARE(beam.nbest.front().output.outputTokens, greedy.outputTokens);
    QCOMPARE(beam.nbest.front().output.sourceTokens, greedy.sourceTokens);
    QCOMPARE(beam.nbest.front().output.sourceTokens[3], std::string("<UNK>"));
    QCOMPARE(int(beam.nbest.front().tokens.size()), int(greedy.outputTokens.size()));
}

void TestTransformerBeam::nbestIsSortedByScore()
{
    TransformerNet net = randomNet();
    const TransformerInference inference(*net);
    const std::vector<int> ids{6, 7, 8, 9, 2};
    for (double alpha : {0.0, 0.6, 1.0}) {
        const TransformerBeam beam = transformerBeamSearch(inference, ids, beamOptions(6, alpha, 4), 7, false);
        QCOMPARE(beam.nbest.size(), std::size_t(4));
        std::set<std::vector<int>> distinct;
        for (std::size_t i = 0; i < beam.nbest.size(); ++i) {
            const TransformerHypothesis &h = beam.nbest[i];
            if (i > 0)
                QVERIFY(beam.nbest[i - 1].score >= h.score);
            QVERIFY(std::abs(h.score - h.logProb / std::pow(double(h.decoded.output.size()), alpha)) < 1e-12);
            QVERIFY(h.logProb < 0);
            // Without recording, no attention.
            QVERIFY(h.decoded.cross.weights.empty() && h.decoded.encoderSelf.weights.empty());
            distinct.insert(h.decoded.output);
        }
        QCOMPARE(distinct.size(), beam.nbest.size());
    }
}

void TestTransformerBeam::finishedHypothesesEndInEosAndNarrowTheBeam()
{
    TransformerNet net = randomNet();
    {
        // <EOS> made likely, so hypotheses finish at different lengths.
        torch::NoGradGuard noGrad;
        net->output->bias[Vocabulary::kEos] += 2.0;
    }
    const TransformerInference inference(*net);
    const std::vector<int> ids{5, 6, 7, 8, 9, 10, 2};
    constexpr int kWidth = 5;
    constexpr int kMaxSteps = 8;
    const TransformerBeam beam =
        transformerBeamSearch(inference, ids, beamOptions(kWidth, 0.6, kWidth), kMaxSteps, true);
    QCOMPARE(int(beam.nbest.size()), kWidth);
    int endedInEos = 0;
    for (const TransformerHypothesis &h : beam.nbest) {
        QVERIFY(endsOnlyAtTheEnd(h.decoded.output));
        const bool ended = h.decoded.output.back() == Vocabulary::kEos;
        endedInEos += ended;
        QVERIFY(ended || int(h.decoded.output.size()) == kMaxSteps);
        QCOMPARE(h.decoded.cross.rows, int(h.decoded.output.size()));
    }
    QVERIFY(endedInEos > 0);
    // A finished hypothesis keeps its slot: each step keeps width minus those finished before it.
    int finished = 0;
    std::set<std::size_t> lengthsFinished;
    for (const BeamStep &step : beam.steps) {
        QCOMPARE(int(step.kept.size()), kWidth - finished);
        for (const BeamStepEntry &entry : step.kept) {
            QCOMPARE(entry.finished, entry.tokens.back() == Vocabulary::kEos);
            QVERIFY(endsOnlyAtTheEnd(entry.tokens));
            if (entry.finished)
                lengthsFinished.insert(entry.tokens.size());
            finished += entry.finished;
        }
    }
    QVERIFY2(lengthsFinished.size() > 1, "every hypothesis finished at the same length");

    // An <EOS> the model cannot avoid: every hypothesis is <EOS> alone or one word and <EOS>.
    {
        torch::NoGradGuard noGrad;
        net->output->bias[Vocabulary::kEos] += 100.0;
    }
    const TransformerInference certain(*net);
    const TransformerBeam ended = transformerBeamSearch(certain, ids, beamOptions(3, 0.6, 3), kMaxSteps, false);
    QCOMPARE(ended.steps.size(), std::size_t(2));
    QCOMPARE(ended.nbest.front().decoded.output, std::vector<int>{Vocabulary::kEos});
    for (const TransformerHypothesis &h : ended.nbest)
        QVERIFY(h.decoded.output.back() == Vocabulary::kEos && h.decoded.output.size() <= 2);
}

void TestTransformerBeam::beamWiderThanTheVocabulary()
{
    TransformerNet net = randomNet();
    const TransformerInference inference(*net);
    const std::vector<int> ids{4, 5, 2};
    constexpr int kWidth = 40;
    const TransformerBeam beam = transformerBeamSearch(inference, ids, beamOptions(kWidth, 0.6, kWidth), 4, false);
    // The first step has one hypothesis to extend: every token of the vocabulary, no more.
    QCOMPARE(int(beam.steps.front().kept.size()), kBeamVocabularySize);
    QCOMPARE(int(beam.nbest.size()), kWidth);
    std::set<std::vector<int>> distinct;
    for (std::size_t i = 0; i < beam.nbest.size(); ++i) {
        distinct.insert(beam.nbest[i].decoded.output);
        if (i > 0)
            QVERIFY(beam.nbest[i - 1].score >= beam.nbest[i].score);
    }
    QCOMPARE(int(distinct.size()), kWidth);
}

void TestTransformerBeam::emptySentence()
{
    TransformerModel model(beamConfig(true, PositionEncoding::Sinusoidal), Vocabulary(kBeamWords), Task::Reverse, 5);
    scrambleWeights(model.net());
    const TransformerBeamOutput beam = model.beamDecode({}, beamOptions(4, 0.6, 2));
    QCOMPARE(beam.nbest.size(), std::size_t(2));
    for (const ScoredTransformerOutput &h : beam.nbest) {
        QCOMPARE(h.output.sourceTokens, std::vector<std::string>{"<EOS>"});
        QVERIFY(!h.tokens.empty() && h.tokens.size() <= 2);  // <EOS> and one token more at most
        QCOMPARE(h.output.encoderSelf.rows, 1);
        QCOMPARE(h.output.encoderSelf.weights[0][0], std::vector<float>{1.0f});
        QCOMPARE(h.output.cross.columns, 1);
        QCOMPARE(h.output.cross.rows, int(h.tokens.size()));
    }
    QCOMPARE(model.beamDecode({}, beamOptions(1, 0.6, 1)).nbest.front().output.outputTokens,
             model.decode({}).outputTokens);
}

void TestTransformerBeam::badInputIsRefusedClearly()
{
    TransformerNet net = randomNet();
    const TransformerInference inference(*net);
    const std::vector<int> ids{4, 5, 2};
    const auto refuses = [&](const BeamOptions &options, int maxSteps, const char *expected) {
        try {
            transformerBeamSearch(inference, ids, options, maxSteps, false);
            QFAIL("accepted");
        } catch (const std::invalid_argument &error) {
            QVERIFY2(QString::fromUtf8(error.what()).contains(QString::fromUtf8(expected)), error.what());
        }
    };
    refuses(beamOptions(0, 0.6, 1), 5, "beam width");
    refuses(beamOptions(kMaxBeamWidth + 1, 0.6, 1), 5, "beam width");
    refuses(beamOptions(3, 0.6, 4), 5, "n-best");
    refuses(beamOptions(3, -1, 1), 5, "alpha");
    refuses(beamOptions(3, 0.6, 1), 0, "maximum length");

    const auto outOfRange = [&](const std::vector<int> &source, const char *expected) {
        try {
            transformerBeamSearch(inference, source, beamOptions(2, 0.6, 1), 5, false);
            QFAIL("accepted");
        } catch (const std::out_of_range &error) {
            QVERIFY2(QString::fromUtf8(error.what()).contains(QString::fromUtf8(expected)), error.what());
        }
    };
    outOfRange(std::vector<int>(40, 4), "longest sequence");
    outOfRange({4, kBeamVocabularySize, 2}, "outside the vocabulary");
    outOfRange({4, -1, 2}, "outside the vocabulary");

    DecodingState state = inference.start(ids, false);
    QVERIFY_EXCEPTION_THROWN(inference.step(state, {1}, {Vocabulary::kSos}, false), std::invalid_argument);
    QVERIFY_EXCEPTION_THROWN(inference.step(state, {0, 0}, {Vocabulary::kSos}, false), std::invalid_argument);
    QVERIFY_EXCEPTION_THROWN(inference.step(state, {0}, {kBeamVocabularySize}, false), std::out_of_range);
    // A refused step changed nothing: the state decodes as a fresh one.
    DecodingState fresh = inference.start(ids, false);
    QCOMPARE(inference.step(state, {0}, {Vocabulary::kSos}, false).logits,
             inference.step(fresh, {0}, {Vocabulary::kSos}, false).logits);
    QCOMPARE(state.steps, 1);
}

ATTNSCOPE_TEST(transformerbeam, TestTransformerBeam)
#include "tst_transformerbeam.moc"
