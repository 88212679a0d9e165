#include "tests/common/testregistry.h"
#include "engine/charlm/charattribution.h"
#include "engine/charlm/charinferencenet.h"
#include "tests/common/randomcharweights.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <numeric>

// Saliency and integrated gradients over the last characters of a context, for the next
// character: autograd's gradients against finite differences of the cells' equations written
// out here in double, the prediction against CharInferenceNet, completeness, a model built by
// hand to depend on one earlier character, and each bad input refused with its reason.
class TestCharAttribution : public QObject
{
    Q_OBJECT
private slots:
    void gradientsMatchFiniteDifferences_data();
    void gradientsMatchFiniteDifferences();
    void predictionIsTheInferenceNets_data();
    void predictionIsTheInferenceNets();
    void integratedGradientsAreComplete_data();
    void integratedGradientsAreComplete();
    void knownCharacterRanksFirst();
    void namedCharacterIsExplained();
    void shortContextIsExplainedWhole();
    void badInputIsRefused_data();
    void badInputIsRefused();
};

namespace {

const std::u32string kAttributionAlphabet = U" .abcdegh";
const std::u32string kContext = U"a cab. bead hedge";

double sigmoid(double x)
{
    return 1 / (1 + std::exp(-x));
}

// W v + b for W (rows x columns) row-major.
std::vector<double> affine(const std::vector<float> &w, const std::vector<float> &b, const std::vector<double> &v)
{
    std::vector<double> y(b.begin(), b.end());
    for (size_t r = 0; r < y.size(); ++r)
        for (size_t c = 0; c < v.size(); ++c)
            y[r] += double(w[r * v.size() + c]) * v[c];
    return y;
}

// log p(next | context) by the equations of CharWeights' comment, with the last `n` characters'
// input vectors replaced by `inputs` (n x inputSize).
double referenceLogProbability(const CharWeights &w, const std::u32string &context, int n,
                               const std::vector<double> &inputs, char32_t next)
{
    const size_t h = size_t(w.config.hidden), layers = size_t(w.config.layers), input = size_t(w.inputSize(0));
    std::vector<std::vector<double>> hidden(layers, std::vector<double>(h)), cell = hidden;
    for (size_t t = 0; t < context.size(); ++t) {
        const size_t id = w.alphabet.find(context[t]);
        std::vector<double> x(input);
        const size_t explained = context.size() - size_t(n);
        if (t >= explained)
            std::copy_n(inputs.begin() + std::ptrdiff_t((t - explained) * input), input, x.begin());
        else if (w.config.embed > 0)
            std::copy_n(w.embedding.begin() + std::ptrdiff_t(id * input), input, x.begin());
        else
            x[id] = 1;
        for (size_t l = 0; l < layers; ++l) {
            const CharLayerWeights &lw = w.layers[l];
            const std::vector<double> gi = affine(lw.inputWeights, lw.inputBias, x);
            const std::vector<double> gh = affine(lw.hiddenWeights, lw.hiddenBias, hidden[l]);
            for (size_t k = 0; k < h; ++k) {
                if (w.config.cell == RecurrentCell::Rnn) {
                    hidden[l][k] = std::tanh(gi[k] + gh[k]);
                } else if (w.config.cell == RecurrentCell::Gru) {
                    const double r = sigmoid(gi[k] + gh[k]), z = sigmoid(gi[h + k] + gh[h + k]);
                    const double candidate = std::tanh(gi[2 * h + k] + r * gh[2 * h + k]);
                    hidden[l][k] = (1 - z) * candidate + z * hidden[l][k];
                } else {
                    const double i = sigmoid(gi[k] + gh[k]), f = sigmoid(gi[h + k] + gh[h + k]);
                    const double g = std::tanh(gi[2 * h + k] + gh[2 * h + k]), o = sigmoid(gi[3 * h + k] + gh[3 * h + k]);
                    cell[l][k] = f * cell[l][k] + i * g;
                    hidden[l][k] = o * std::tanh(cell[l][k]);
                }
            }
            x = hidden[l];
        }
    }
    const std::vector<double> logits = affine(w.outputWeights, w.outputBias, hidden.back());
    const double top = *std::max_element(logits.begin(), logits.end());
    double sum = 0;
    for (double z : logits)
        sum += std::exp(z - top);
    return logits[w.alphabet.find(next)] - top - std::log(sum);
}

// The explained characters' input vectors, as the model reads them.
std::vector<double> inputsOf(const CharWeights &w, const std::u32string &characters)
{
    const size_t input = size_t(w.inputSize(0));
    std::vector<double> x(characters.size() * input);
    for (size_t i = 0; i < characters.size(); ++i) {
        const size_t id = w.alphabet.find(characters[i]);
        for (size_t k = 0; k < input; ++k)
            x[i * input + k] = w.config.embed > 0 ? double(w.embedding[id * input + k]) : double(k == id);
    }
    return x;
}

// df/dx at `x` by central differences.
std::vector<double> finiteGradient(const CharWeights &w, const std::u32string &context, int n, std::vector<double> x,
                                   char32_t next)
{
    constexpr double kStep = 1e-5;
    std::vector<double> g(x.size());
    for (size_t k = 0; k < x.size(); ++k) {
        const double kept = x[k];
        x[k] = kept + kStep;
        const double up = referenceLogProbability(w, context, n, x, next);
        x[k] = kept - kStep;
        const double down = referenceLogProbability(w, context, n, x, next);
        x[k] = kept;
        g[k] = (up - down) / (2 * kStep);
    }
    return g;
}

void addModelRows()
{
    QTest::addColumn<int>("cell");
    QTest::addColumn<int>("embed");
    for (RecurrentCell cell : {RecurrentCell::Rnn, RecurrentCell::Gru, RecurrentCell::Lstm})
        for (int embed : {3, 0})
            QTest::addRow("%s, %s", cellName(cell), embed > 0 ? "embedding" : "one-hot") << int(cell) << embed;
}

CharWeights rowModel(int cell, int embed)
{
    return randomCharWeights({RecurrentCell(cell), /*hidden=*/5, /*layers=*/2, embed}, kAttributionAlphabet,
                             unsigned(40 + 2 * cell + (embed > 0)));
}

int argmax(const std::vector<double> &v)
{
    return int(std::max_element(v.begin(), v.end()) - v.begin());
}

}

void TestCharAttribution::gradientsMatchFiniteDifferences_data()
{
    addModelRows();
}

// Saliency is the norm of autograd's gradient, which central differences of the equations
// reproduce; integrated gradients are the trapezoidal rule over the same gradients on the path.
void TestCharAttribution::gradientsMatchFiniteDifferences()
{
    QFETCH(int, cell);
    QFETCH(int, embed);
    const CharWeights w = rowModel(cell, embed);
    CharAttributionOptions options;
    options.last = 6;
    options.integrationSteps = 4;
    const CharAttribution a = explainNextCharacter(w, kContext, options);
    QCOMPARE(a.characters, kContext.substr(kContext.size() - 6));
    const int n = int(a.characters.size()), input = a.inputSize;
    QCOMPARE(input, w.inputSize(0));
    const std::vector<double> x = inputsOf(w, a.characters);
    QVERIFY(std::abs(a.logProbability - referenceLogProbability(w, kContext, n, x, a.next)) < 1e-9);
    QVERIFY(std::abs(a.baselineLogProbability -
                     referenceLogProbability(w, kContext, n, std::vector<double>(x.size()), a.next)) < 1e-9);

    const std::vector<double> g = finiteGradient(w, kContext, n, x, a.next);
    QCOMPARE(a.gradients.size(), g.size());
    for (size_t k = 0; k < g.size(); ++k)
        QVERIFY2(std::abs(a.gradients[k] - g[k]) < 1e-7,
                 qPrintable(QString("%1: %2 vs %3").arg(k).arg(a.gradients[k]).arg(g[k])));
    std::vector<double> reference(static_cast<size_t>(n));
    for (int s = 0; s <= options.integrationSteps; ++s) {
        const double alpha = double(s) / options.integrationSteps;
        const double weight = (s == 0 || s == options.integrationSteps ? 0.5 : 1.0) / options.integrationSteps;
        std::vector<double> point(x);
        for (double &v : point)
            v *= alpha;
        const std::vector<double> gp = finiteGradient(w, kContext, n, point, a.next);
        for (size_t k = 0; k < gp.size(); ++k)
            reference[k / size_t(input)] += weight * x[k] * gp[k];
    }
    for (int i = 0; i < n; ++i) {
        double norm = 0;
        for (int k = 0; k < input; ++k)
            norm += g[size_t(i * input + k)] * g[size_t(i * input + k)];
        QVERIFY(std::abs(a.saliency[size_t(i)] - std::sqrt(norm)) < 1e-7);
        QVERIFY(std::abs(a.integratedGradients[size_t(i)] - reference[size_t(i)]) < 1e-7);
    }
}

void TestCharAttribution::predictionIsTheInferenceNets_data()
{
    addModelRows();
}

// The whole context is read, not only the explained characters: the distribution is the one the
// sampler draws from after it.
void TestCharAttribution::predictionIsTheInferenceNets()
{
    QFETCH(int, cell);
    QFETCH(int, embed);
    const CharWeights w = rowModel(cell, embed);
    CharAttributionOptions options;
    options.last = 3;
    const CharAttribution a = explainNextCharacter(w, kContext, options);
    const CharInferenceNet net(w);
    CharInferenceNet::State state = net.start();
    std::vector<float> logits(kAttributionAlphabet.size());
    for (char32_t c : kContext)
        net.step(net.idOf(c), state, logits.data());
    const float top = *std::max_element(logits.begin(), logits.end());
    double sum = 0;
    for (float z : logits)
        sum += std::exp(double(z - top));
    QCOMPARE(a.probabilities.size(), kAttributionAlphabet.size());
    for (size_t c = 0; c < logits.size(); ++c)
        QVERIFY(std::abs(a.probabilities[c] - std::exp(double(logits[c] - top)) / sum) < 1e-5);
    QCOMPARE(a.predicted, kAttributionAlphabet[size_t(argmax(a.probabilities))]);
    QCOMPARE(a.next, a.predicted);
    QCOMPARE(a.probability, a.probabilities[size_t(argmax(a.probabilities))]);
    QCOMPARE(a.contextLength, int(kContext.size()));
}

void TestCharAttribution::integratedGradientsAreComplete_data()
{
    addModelRows();
}

// At the default 64 steps the scores add up to f(x) - f(x') within 1%, and closer than at 4. (A tanh
// RNN with much larger random weights is chaotic: its gradients along the path swing too fast for
// 64 points, and the gap only closes at thousands.)
void TestCharAttribution::integratedGradientsAreComplete()
{
    QFETCH(int, cell);
    QFETCH(int, embed);
    const CharWeights w = randomCharWeights({RecurrentCell(cell), /*hidden=*/16, /*layers=*/2, embed}, kAttributionAlphabet,
                                            unsigned(70 + cell));
    const CharAttribution a = explainNextCharacter(w, kContext);
    QCOMPARE(a.integrationSteps, kDefaultCharIntegrationSteps);
    const double delta = a.logProbability - a.baselineLogProbability;
    const double sum = std::accumulate(a.integratedGradients.begin(), a.integratedGradients.end(), 0.0);
    QCOMPARE(a.completenessGap, std::abs(sum - delta));
    QVERIFY2(a.completenessGap <= 0.01 * std::abs(delta),
             qPrintable(QString("gap %1, f(x) - f(x') %2").arg(a.completenessGap).arg(delta)));
    CharAttributionOptions coarse;
    coarse.integrationSteps = 4;
    QVERIFY(explainNextCharacter(w, kContext, coarse).completenessGap > a.completenessGap);
}

// A tanh RNN over one-hot characters wired as a delay line: unit 0 reads 'a' (+) or 'b' (-),
// unit 1 copies unit 0 a step later, unit 2 unit 1; the output reads unit 2. So the next
// character is 'a' or 'b' as the third character from the end is, and small leaks (unit 0 from
// its past and from 'c', unit 1 from 'c') let the characters before it count a little.
void TestCharAttribution::knownCharacterRanksFirst()
{
    CharWeights w;
    w.config = {RecurrentCell::Rnn, /*hidden=*/3, /*layers=*/1, /*embed=*/0};
    w.alphabet = U".abc";
    const int v = 4, a = 1, b = 2, c = 3;
    CharLayerWeights layer;
    layer.inputWeights.assign(size_t(3 * v), 0.0f);
    layer.hiddenWeights.assign(9, 0.0f);
    layer.inputBias.assign(3, 0.0f);
    layer.hiddenBias.assign(3, 0.0f);
    layer.inputWeights[size_t(a)] = 1.5f;
    layer.inputWeights[size_t(b)] = -1.5f;
    layer.inputWeights[size_t(c)] = 0.1f;
    layer.inputWeights[size_t(v + c)] = 0.1f;
    layer.hiddenWeights[0] = 0.2f;      // unit 0 from itself
    layer.hiddenWeights[3 + 0] = 2.0f;  // unit 1 from unit 0
    layer.hiddenWeights[6 + 1] = 2.0f;  // unit 2 from unit 1
    w.layers = {layer};
    w.outputWeights.assign(size_t(v * 3), 0.0f);
    w.outputWeights[size_t(a * 3 + 2)] = 4.0f;
    w.outputWeights[size_t(b * 3 + 2)] = -4.0f;
    w.outputBias.assign(size_t(v), 0.0f);

    for (const std::u32string &context : {std::u32string(U"cc.b.cac."), std::u32string(U".cab.bcc"),
                                          std::u32string(U"c.bc.a..")}) {
        const CharAttribution explained = explainNextCharacter(w, context);
        const char32_t cause = context[context.size() - 3];
        QCOMPARE(explained.predicted, cause);
        QCOMPARE(explained.next, cause);
        QVERIFY(explained.probability > 0.9);
        const int expected = int(explained.characters.size()) - 3;
        QCOMPARE(argmax(explained.saliency), expected);
        QCOMPARE(argmax(explained.integratedGradients), expected);
        // The last character has not reached unit 2 yet: it counts for nothing.
        QCOMPARE(explained.saliency.back(), 0.0);
        QCOMPARE(explained.integratedGradients.back(), 0.0);
    }
}

// Explaining a character other than the prediction: its own probability and gradients.
void TestCharAttribution::namedCharacterIsExplained()
{
    const CharWeights w = rowModel(int(RecurrentCell::Gru), 3);
    const CharAttribution predicted = explainNextCharacter(w, kContext);
    CharAttributionOptions options;
    options.next = predicted.predicted == U'h' ? U'e' : U'h';
    const CharAttribution other = explainNextCharacter(w, kContext, options);
    QCOMPARE(other.next, *options.next);
    QCOMPARE(other.predicted, predicted.predicted);
    QCOMPARE(other.probability, other.probabilities[kAttributionAlphabet.find(*options.next)]);
    QVERIFY(other.probability < predicted.probability);
    QVERIFY(std::abs(other.logProbability - std::log(other.probability)) < 1e-9);
    QVERIFY(other.saliency != predicted.saliency);
    const std::vector<double> x = inputsOf(w, other.characters);
    const std::vector<double> g = finiteGradient(w, kContext, int(other.characters.size()), x, other.next);
    for (size_t k = 0; k < g.size(); ++k)
        QVERIFY(std::abs(other.gradients[k] - g[k]) < 1e-7);
}

void TestCharAttribution::shortContextIsExplainedWhole()
{
    const CharWeights w = rowModel(int(RecurrentCell::Lstm), 0);
    const CharAttribution a = explainNextCharacter(w, U"he");
    QCOMPARE(a.characters, std::u32string(U"he"));
    QCOMPARE(a.saliency.size(), size_t(2));
    QCOMPARE(a.integratedGradients.size(), size_t(2));
    QCOMPARE(a.gradients.size(), size_t(2 * kAttributionAlphabet.size()));
}

void TestCharAttribution::badInputIsRefused_data()
{
    QTest::addColumn<QString>("context");
    QTest::addColumn<int>("last");
    QTest::addColumn<int>("steps");
    QTest::addColumn<uint>("next");  // 0: none
    QTest::addColumn<int>("layers");
    QTest::addColumn<QString>("message");
    const QString ok = QString::fromStdU32String(kContext);
    QTest::newRow("empty context") << QString() << 40 << 64 << 0u << 2 << "The context is empty";
    QTest::newRow("no character to explain") << ok << 0 << 64 << 0u << 2 << "from 1 to 200, not 0";
    QTest::newRow("too many to explain") << ok << kMaxExplainedCharacters + 1 << 64 << 0u << 2 << "not 201";
    QTest::newRow("no steps") << ok << 40 << 0 << 0u << 2 << "from 1 to 1024 steps, not 0";
    QTest::newRow("too many steps") << ok << 40 << kMaxCharIntegrationSteps + 1 << 0u << 2 << "not 1025";
    QTest::newRow("unknown character") << QStringLiteral("a cat") << 40 << 64 << 0u << 2
                                       << "The context's character 't' (position 5) is not in the model's alphabet";
    QTest::newRow("unknown line break") << QStringLiteral("a\nb") << 40 << 64 << 0u << 2 << "'\\n' (position 2)";
    QTest::newRow("unknown next") << ok << 40 << 64 << uint(U'z') << 2
                                  << "The character to explain, 'z', is not in the model's alphabet";
    QTest::newRow("context too long") << QString(kMaxExplainedContext + 1, QLatin1Char('a')) << 40 << 64 << 0u << 2
                                      << "has 2001 characters; at most 2000";
    QTest::newRow("inconsistent weights") << ok << 40 << 64 << 0u << 1 << "layers, not";
}

void TestCharAttribution::badInputIsRefused()
{
    QFETCH(QString, context);
    QFETCH(int, last);
    QFETCH(int, steps);
    QFETCH(uint, next);
    QFETCH(int, layers);
    QFETCH(QString, message);
    CharWeights w = rowModel(int(RecurrentCell::Gru), 3);
    w.layers.resize(size_t(layers));
    CharAttributionOptions options;
    options.last = last;
    options.integrationSteps = steps;
    if (next)
        options.next = char32_t(next);
    try {
        explainNextCharacter(w, context.toStdU32String(), options);
        QFAIL("no exception");
    } catch (const std::invalid_argument &e) {
        QVERIFY2(QString::fromUtf8(e.what()).contains(message), e.what());
    }
}

ATTNSCOPE_TEST(charattribution, TestCharAttribution)
#include "tst_charattribution.moc"
