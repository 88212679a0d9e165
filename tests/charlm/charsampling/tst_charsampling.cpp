#include "tests/common/testregistry.h"
#include "engine/charlm/charsampling.h"
#include "tests/common/randomcharweights.h"

#include <QtTest>

#include <cmath>

// Sampling draws from softmax(logits / T) restricted to the top k, greedy at T = 0; the
// memorisation meter and the readout read the model as stepping it by hand does.
class TestCharSampling : public QObject
{
    Q_OBJECT
private slots:
    void temperatureZeroIsGreedy();
    void frequenciesFollowTheSoftmax_data();
    void frequenciesFollowTheSoftmax();
    void topKNeverDrawsOutsideTheTopK();
    void entropyOfKnownDistributions_data();
    void entropyOfKnownDistributions();
    void primeLeavesOutUnknownCharacters();
    void badOptionsAreRefused();
    void memorisedLengthFollowsACycle();
    void memorisedLengthOfGreedyText();
    void readOutMatchesSteppingByHand();
};

namespace {

const std::u32string kAlphabet = U" abcdefgh";

CharInferenceNet randomNet(int layers = 2)
{
    CharModelConfig config;
    config.cell = RecurrentCell::Gru;
    config.hidden = 16;
    config.layers = layers;
    config.embed = 4;
    return CharInferenceNet(randomCharWeights(config, kAlphabet, 5, 1.0f));
}

// A one-layer RNN whose weights are all zero but the output bias: the same logits after every
// character.
CharInferenceNet constantNet(const std::vector<float> &logits)
{
    CharModelConfig config;
    config.cell = RecurrentCell::Rnn;
    config.hidden = 2;
    config.layers = 1;
    config.embed = 0;
    std::u32string alphabet;
    for (std::size_t i = 0; i < logits.size(); ++i)
        alphabet += char32_t(U'a' + i);
    CharWeights w = randomCharWeights(config, alphabet, 1);
    for (CharLayerWeights &layer : w.layers)
        for (std::vector<float> *v : {&layer.inputWeights, &layer.hiddenWeights, &layer.inputBias, &layer.hiddenBias})
            std::fill(v->begin(), v->end(), 0.0f);
    std::fill(w.outputWeights.begin(), w.outputWeights.end(), 0.0f);
    w.outputBias = logits;
    return CharInferenceNet(w);
}

// A one-hot RNN whose state is (nearly) the one-hot vector of the last character read, and whose
// output puts a logit of 10 on the character after it in the alphabet (the last one followed by
// the first): greedy decoding goes round the alphabet.
CharInferenceNet cycleNet(const std::u32string &alphabet)
{
    CharModelConfig config;
    config.cell = RecurrentCell::Rnn;
    config.layers = 1;
    config.embed = 0;
    config.hidden = int(alphabet.size());
    const std::size_t v = alphabet.size();
    CharWeights w = randomCharWeights(config, alphabet, 1);
    CharLayerWeights &layer = w.layers.front();
    for (std::vector<float> *values : {&layer.inputWeights, &layer.hiddenWeights, &layer.inputBias, &layer.hiddenBias,
                                       &w.outputWeights, &w.outputBias})
        std::fill(values->begin(), values->end(), 0.0f);
    for (std::size_t c = 0; c < v; ++c) {
        layer.inputWeights[c * v + c] = 10;
        w.outputWeights[((c + 1) % v) * v + c] = 10;
    }
    return CharInferenceNet(w);
}

std::vector<int32_t> idsOf(const CharInferenceNet &net, const std::u32string &text)
{
    std::vector<int32_t> ids;
    for (char32_t c : text)
        ids.push_back(net.idOf(c));
    return ids;
}

// The logits before each generated character, stepping the net through prime + generated.
std::vector<std::vector<float>> logitsAlong(const CharInferenceNet &net, const SampledText &sample)
{
    CharInferenceNet::State state = net.start();
    std::vector<float> logits(std::size_t(net.alphabetSize()));
    for (char32_t c : sample.prime)
        net.step(net.idOf(c), state, logits.data());
    std::vector<std::vector<float>> before;
    for (char32_t c : sample.generated) {
        before.push_back(logits);
        net.step(net.idOf(c), state, logits.data());
    }
    return before;
}

double entropyBits(const std::vector<double> &p)
{
    double h = 0;
    for (double q : p)
        if (q > 0)
            h -= q * std::log2(q);
    return h;
}

}

void TestCharSampling::temperatureZeroIsGreedy()
{
    const CharInferenceNet net = randomNet();
    SamplingOptions options;
    options.prime = U"ab";
    options.length = 80;
    options.temperature = 0;
    const SampledText greedy = sampleText(net, options);
    QCOMPARE(greedy.generated.size(), std::size_t(80));
    const std::vector<std::vector<float>> before = logitsAlong(net, greedy);
    for (std::size_t i = 0; i < before.size(); ++i) {
        const auto &l = before[i];
        QCOMPARE(net.idOf(greedy.generated[i]), int(std::max_element(l.begin(), l.end()) - l.begin()));
        QCOMPARE(greedy.probabilities[i], 1.0);
        QCOMPARE(greedy.entropyBits[i], 0.0);
    }
    // The limit T -> 0 draws the same text, whatever the seed.
    for (uint64_t seed : {1u, 2u, 3u}) {
        options.temperature = 1e-6;
        options.seed = seed;
        QCOMPARE(sampleText(net, options).generated, greedy.generated);
    }
    // The first of equal logits.
    const std::vector<float> tie{0.5f, 2.0f, 2.0f, -1.0f};
    const std::vector<double> p = samplingDistribution(tie.data(), 4, 0, 0);
    QCOMPARE(p, (std::vector<double>{0, 1, 0, 0}));
}

void TestCharSampling::frequenciesFollowTheSoftmax_data()
{
    QTest::addColumn<double>("temperature");
    QTest::addColumn<int>("topK");
    QTest::newRow("T = 1") << 1.0 << 0;
    QTest::newRow("T = 0.5") << 0.5 << 0;
    QTest::newRow("T = 1, top 4") << 1.0 << 4;
}

void TestCharSampling::frequenciesFollowTheSoftmax()
{
    QFETCH(double, temperature);
    QFETCH(int, topK);
    // Every draw of a long sample is from the same distribution: the constant net's.
    const std::vector<float> logits{0.3f, -0.5f, 1.2f, 0.0f, -1.0f, 0.7f};
    const CharInferenceNet net = constantNet(logits);
    SamplingOptions options;
    options.prime = U"a";
    options.length = 20000;
    options.temperature = temperature;
    options.topK = topK;
    options.seed = 42;
    const SampledText sample = sampleText(net, options);

    std::vector<double> expected(logits.size());
    double sum = 0;
    for (std::size_t i = 0; i < logits.size(); ++i)
        sum += expected[i] = std::exp(logits[i] / temperature);
    if (topK > 0) {
        std::vector<float> sorted = logits;
        std::sort(sorted.rbegin(), sorted.rend());
        sum = 0;
        for (std::size_t i = 0; i < logits.size(); ++i)
            sum += expected[i] = logits[i] >= sorted[std::size_t(topK - 1)] ? expected[i] : 0;
    }
    for (double &p : expected)
        p /= sum;

    std::vector<int> counts(logits.size(), 0);
    for (std::size_t i = 0; i < sample.generated.size(); ++i) {
        const int id = net.idOf(sample.generated[i]);
        ++counts[std::size_t(id)];
        QVERIFY(std::abs(sample.probabilities[i] - expected[std::size_t(id)]) < 1e-6);
    }
    double chiSquare = 0;
    int degrees = -1;
    for (std::size_t i = 0; i < logits.size(); ++i) {
        if (expected[i] == 0) {
            QCOMPARE(counts[i], 0);
            continue;
        }
        const double e = expected[i] * double(sample.generated.size());
        chiSquare += (counts[i] - e) * (counts[i] - e) / e;
        ++degrees;
    }
    // The 99.9th percentiles of chi-square with 5 and 3 degrees of freedom.
    const double critical = degrees == 5 ? 20.515 : 16.266;
    QVERIFY(degrees == 5 || degrees == 3);
    QVERIFY2(chiSquare < critical, qPrintable(QString("chi-square %1 with %2 degrees of freedom").arg(chiSquare).arg(degrees)));
}

void TestCharSampling::topKNeverDrawsOutsideTheTopK()
{
    const CharInferenceNet net = randomNet();
    SamplingOptions options;
    options.prime = U"a";
    options.length = 400;
    options.temperature = 2.0;  // hot, so that the tail would be drawn if it could be
    options.topK = 3;
    options.seed = 9;
    const SampledText sample = sampleText(net, options);
    const std::vector<std::vector<float>> before = logitsAlong(net, sample);
    int belowTheTop = 0;
    for (std::size_t i = 0; i < before.size(); ++i) {
        std::vector<float> sorted = before[i];
        std::sort(sorted.rbegin(), sorted.rend());
        const float logit = before[i][std::size_t(net.idOf(sample.generated[i]))];
        QVERIFY(logit >= sorted[2]);
        belowTheTop += logit < sorted[0];
    }
    QVERIFY(belowTheTop > 50);

    // Renormalised over the k kept: their ratios are the softmax's.
    const std::vector<float> logits{0.1f, 2.0f, -0.3f, 1.5f, 0.9f};
    const std::vector<double> p = samplingDistribution(logits.data(), 5, 1.0, 2);
    QCOMPARE(std::count_if(p.begin(), p.end(), [](double q) { return q > 0; }), 2);
    QVERIFY(std::abs(p[1] + p[3] - 1) < 1e-12);
    QVERIFY(std::abs(p[1] / p[3] - std::exp(2.0 - 1.5)) < 1e-6);
}

void TestCharSampling::entropyOfKnownDistributions_data()
{
    QTest::addColumn<std::vector<float>>("logits");
    QTest::addColumn<double>("temperature");
    QTest::addColumn<int>("topK");
    QTest::addColumn<std::vector<double>>("distribution");
    const std::vector<float> halves{std::log(0.5f), std::log(0.25f), std::log(0.125f), std::log(0.125f)};
    QTest::newRow("1/2 1/4 1/8 1/8") << halves << 1.0 << 0 << std::vector<double>{0.5, 0.25, 0.125, 0.125};
    // T = 1/2 squares the probabilities: 1/4, 1/16, 1/64, 1/64 over their sum 22/64.
    QTest::newRow("squared by T = 0.5") << halves << 0.5 << 0
                                        << std::vector<double>{16 / 22.0, 4 / 22.0, 1 / 22.0, 1 / 22.0};
    QTest::newRow("top 2 of them") << halves << 1.0 << 2 << std::vector<double>{2 / 3.0, 1 / 3.0, 0, 0};
    QTest::newRow("uniform") << std::vector<float>(4, 0.7f) << 1.0 << 0 << std::vector<double>(4, 0.25);
    QTest::newRow("greedy") << halves << 0.0 << 0 << std::vector<double>{1, 0, 0, 0};
}

void TestCharSampling::entropyOfKnownDistributions()
{
    QFETCH(std::vector<float>, logits);
    QFETCH(double, temperature);
    QFETCH(int, topK);
    QFETCH(std::vector<double>, distribution);
    const std::vector<double> p = samplingDistribution(logits.data(), int(logits.size()), temperature, topK);
    for (std::size_t i = 0; i < p.size(); ++i)
        QVERIFY(std::abs(p[i] - distribution[i]) < 1e-6);
    SamplingOptions options;
    options.prime = U"a";
    options.length = 50;
    options.temperature = temperature;
    options.topK = topK;
    const SampledText sample = sampleText(constantNet(logits), options);
    for (std::size_t i = 0; i < sample.generated.size(); ++i) {
        QVERIFY(std::abs(sample.entropyBits[i] - entropyBits(distribution)) < 1e-6);
        QVERIFY(std::abs(sample.probabilities[i] - distribution[std::size_t(sample.generated[i] - U'a')]) < 1e-6);
    }
}

void TestCharSampling::primeLeavesOutUnknownCharacters()
{
    const CharInferenceNet net = randomNet();
    SamplingOptions options;
    options.length = 30;
    options.seed = 4;
    options.prime = U"\u2603a?b\u00E9";
    const SampledText withUnknown = sampleText(net, options);
    QCOMPARE(withUnknown.prime, std::u32string(U"ab"));
    options.prime = U"ab";
    QCOMPARE(withUnknown.generated, sampleText(net, options).generated);
    // The prime is read: another one leads elsewhere.
    options.prime = U"hh";
    QVERIFY(sampleText(net, options).generated != withUnknown.generated);

    for (const std::u32string &prime : {std::u32string(U"\u2603?!"), std::u32string()}) {
        options.prime = prime;
        try {
            sampleText(net, options);
            QFAIL("a prime without a character of the alphabet was accepted");
        } catch (const std::invalid_argument &e) {
            QVERIFY2(QString(e.what()).contains("prime"), e.what());
        }
    }
}

void TestCharSampling::badOptionsAreRefused()
{
    const CharInferenceNet net = randomNet();
    const auto refused = [&](auto change) {
        SamplingOptions options;
        options.prime = U"a";
        change(options);
        try {
            sampleText(net, options);
        } catch (const std::invalid_argument &) {
            return true;
        }
        return false;
    };
    QVERIFY(refused([](SamplingOptions &o) { o.temperature = -0.1; }));
    QVERIFY(refused([](SamplingOptions &o) { o.temperature = std::nan(""); }));
    QVERIFY(refused([](SamplingOptions &o) { o.topK = -1; }));
    QVERIFY(refused([](SamplingOptions &o) { o.length = -1; }));
    QVERIFY(refused([](SamplingOptions &o) { o.length = kMaxSampleLength + 1; }));
    QVERIFY(!refused([](SamplingOptions &o) { o.length = 0; }));
    QVERIFY(!refused([](SamplingOptions &o) { o.topK = 1000; }));
}

void TestCharSampling::memorisedLengthFollowsACycle()
{
    const CharInferenceNet net = cycleNet(U"abcd");
    SamplingOptions options;
    options.prime = U"c";
    options.length = 6;
    options.temperature = 0;
    QCOMPARE(sampleText(net, options).generated, std::u32string(U"dabcda"));

    const std::vector<int32_t> cycle = idsOf(net, U"abcdabcdabcdab");
    QCOMPARE(memorisedLength(net, cycle, 1, 1000), int64_t(13));
    QCOMPARE(memorisedLength(net, cycle, 4, 1000), int64_t(10));
    QCOMPARE(memorisedLength(net, cycle, 1, 5), int64_t(5));
    QCOMPARE(memorisedLength(net, cycle, 14, 1000), int64_t(0));
    // "abcdab" then 'd' where the cycle has 'c': five regenerated after the first character.
    const std::vector<int32_t> broken = idsOf(net, U"abcdabdabcd");
    QCOMPARE(memorisedLength(net, broken, 1, 1000), int64_t(5));
    QCOMPARE(memorisedLength(net, broken, 3, 1000), int64_t(3));
    QCOMPARE(memorisedLength(net, broken, 7, 1000), int64_t(4));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, memorisedLength(net, cycle, 0, 10));
}

void TestCharSampling::memorisedLengthOfGreedyText()
{
    const CharInferenceNet net = randomNet();
    SamplingOptions options;
    options.prime = U"fade";
    options.length = 60;
    options.temperature = 0;
    const SampledText greedy = sampleText(net, options);
    std::vector<int32_t> ids = idsOf(net, greedy.prime + greedy.generated);
    QCOMPARE(memorisedLength(net, ids, 4, 1000), int64_t(60));
    ids[30] = (ids[30] + 1) % net.alphabetSize();
    QCOMPARE(memorisedLength(net, ids, 4, 1000), int64_t(26));
}

void TestCharSampling::readOutMatchesSteppingByHand()
{
    const CharInferenceNet net = randomNet();
    const std::u32string text = U"ab\u2603 cab";
    const CharReadout readout = readOut(net, text, 3);
    QCOMPARE(readout.text, text);
    QCOMPARE(readout.layers, 2);
    QCOMPARE(readout.hidden, 16);
    QCOMPARE(readout.activations.size(), text.size() * 2 * 16);

    CharInferenceNet::State state = net.start();
    std::vector<float> logits(std::size_t(net.alphabetSize()));
    for (std::size_t i = 0; i < text.size(); ++i) {
        const int id = net.idOf(text[i]);
        QCOMPARE(bool(readout.unknown[i]), id < 0);
        if (id < 0) {
            QVERIFY(readout.next[i].empty());
        } else {
            net.step(id, state, logits.data());
            const std::vector<double> p = samplingDistribution(logits.data(), net.alphabetSize(), 1.0, 0);
            QCOMPARE(readout.next[i].size(), std::size_t(3));
            const auto highest = std::max_element(p.begin(), p.end());
            QCOMPARE(readout.next[i][0].character, net.alphabet()[std::size_t(highest - p.begin())]);
            for (std::size_t k = 0; k < 3; ++k) {
                const CharReadout::Next &next = readout.next[i][k];
                QCOMPARE(next.probability, p[std::size_t(net.idOf(next.character))]);
                if (k > 0)
                    QVERIFY(next.probability <= readout.next[i][k - 1].probability);
            }
        }
        // Unknown or not, the state now is the one read out there.
        for (int layer = 0; layer < 2; ++layer)
            for (int unit = 0; unit < 16; ++unit)
                QCOMPARE(readout.activation(i, layer, unit), net.hidden(state, layer)[unit]);
    }
    QCOMPARE(readOut(net, U"abc", 100).next[1].size(), kAlphabet.size());
}

ATTNSCOPE_TEST(charsampling, TestCharSampling)
#include "tst_charsampling.moc"
