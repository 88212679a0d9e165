#include "tests/common/testregistry.h"
#include "tests/common/tinytransformer.h"
#include "engine/transformer/attentionrollout.h"
#include "engine/transformer/headscores.h"
#include "engine/transformer/transformermodel.h"
#include "engine/transformer/transformernet.h"

#include <QtTest>

#include <cmath>
#include <functional>
#include <random>

namespace {

// One layer, two heads, over "a b c <EOS>" reversed to "c b a <EOS>": head 1 puts 0.9 on each
// output word's source word, head 2 looks at the source's <EOS> only.
TransformerOutput reversal()
{
    TransformerOutput output;
    output.sourceTokens = {"a", "b", "c", "<EOS>"};
    output.outputTokens = {"c", "b", "a", "<EOS>"};
    output.cross.rows = 4;
    output.cross.columns = 4;
    std::vector<float> answering(16, 0.1f / 3);
    for (int row = 0; row < 3; ++row)
        answering[std::size_t(row * 4 + (2 - row))] = 0.9f;
    answering[15] = 0.9f;
    std::vector<float> onEos(16, 0.0f);
    for (int row = 0; row < 4; ++row)
        onEos[std::size_t(row * 4 + 3)] = 1.0f;
    output.cross.weights = {{answering, onEos}};
    return output;
}

// Every row of every head a softmax of random scores: rows x columns, row-major.
std::vector<float> randomRows(std::mt19937 &random, int rows, int columns)
{
    std::normal_distribution<float> score(0.0f, 2.0f);
    std::vector<float> weights;
    for (int r = 0; r < rows; ++r) {
        std::vector<float> row(static_cast<std::size_t>(columns));
        float sum = 0;
        for (float &x : row) {
            x = std::exp(score(random));
            sum += x;
        }
        for (float x : row)
            weights.push_back(x / sum);
    }
    return weights;
}

LayeredAttention randomAttention(std::mt19937 &random, int layers, int heads, int rows, int columns)
{
    LayeredAttention attention;
    attention.rows = rows;
    attention.columns = columns;
    for (int l = 0; l < layers; ++l) {
        attention.weights.emplace_back();
        for (int h = 0; h < heads; ++h)
            attention.weights.back().push_back(randomRows(random, rows, columns));
    }
    return attention;
}

LayeredAttention oneHead(int size, std::vector<std::vector<float>> layers)
{
    LayeredAttention attention;
    attention.rows = attention.columns = size;
    for (std::vector<float> &layer : layers)
        attention.weights.push_back({std::move(layer)});
    return attention;
}

double largestRowSumError(const RolloutMatrix &m)
{
    double largest = 0;
    for (int r = 0; r < m.rows; ++r) {
        double sum = 0;
        for (int c = 0; c < m.columns; ++c)
            sum += m.at(r, c);
        largest = std::max(largest, std::abs(sum - 1));
    }
    return largest;
}

void compareMatrix(const RolloutMatrix &m, int rows, int columns, const std::vector<double> &expected)
{
    QCOMPARE(m.rows, rows);
    QCOMPARE(m.columns, columns);
    QCOMPARE(m.values.size(), expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i)
        QVERIFY2(std::abs(m.values[i] - expected[i]) < 1e-6, qPrintable(QStringLiteral("entry %1").arg(i)));
}

TransformerConfig smallTransformer()
{
    TransformerConfig config = tinyTransformer(2, 2, 16, 24);
    config.maxPositions = 32;
    return config;
}

// Each one-sentence score averaged by hand, NaN left out, against the split's.
void compareAverages(const std::vector<std::vector<std::vector<HeadScore>>> &perSentence,
                     const std::vector<std::vector<HeadScore>> &split, double HeadScore::*field)
{
    QCOMPARE(split.size(), perSentence.front().size());
    for (std::size_t l = 0; l < split.size(); ++l)
        for (std::size_t h = 0; h < split[l].size(); ++h) {
            double sum = 0;
            int counted = 0;
            for (const auto &sentence : perSentence)
                if (!std::isnan(sentence[l][h].*field)) {
                    sum += sentence[l][h].*field;
                    ++counted;
                }
            if (counted == 0)
                QVERIFY(std::isnan(split[l][h].*field));
            else
                QVERIFY(std::abs(split[l][h].*field - sum / counted) < 1e-12);
        }
}

}  // namespace

// Each head's share on the known answer (cross-attention) and on its own and the previous position
// (self-attention), from hand-made weights, for one sentence and averaged over a split; and the
// attention rollout across layers and a layer's head mean (attentionrollout.h) against hand
// computation; and decoding fed given output words, against greedy decoding.
class TestHeadScores : public QObject
{
    Q_OBJECT
private slots:
    void crossScoresTheKnownAnswer();
    void copyingReadsTheSamePosition();
    void selfScoresSameAndPrevious();
    void splitScoresAverageTheSentences();
    void splitScoresOfAModelAverageItsSentences();
    void oneLayerRolloutIsAttentionWithResidual();
    void twoLayerRolloutByHand();
    void crossRolloutByHand();
    void rolloutOfADecodedSentence();
    void rolloutRefusesShapesThatDoNotFit();
    void layerHeadMeanByHand();
    void decodingAlongItsOwnOutputIsGreedyDecoding();
};

void TestHeadScores::crossScoresTheKnownAnswer()
{
    const auto scores = crossHeadScores(Task::Reverse, reversal());
    QCOMPARE(int(scores.size()), 1);
    QCOMPARE(int(scores[0].size()), 2);
    // The <EOS> row has no answer: three rows count.
    QVERIFY(std::abs(scores[0][0].answer - 0.9) < 1e-6);
    QCOMPARE(scores[0][1].answer, 0.0);
    QVERIFY(std::isnan(scores[0][0].same) && std::isnan(scores[0][0].previous));
}

void TestHeadScores::copyingReadsTheSamePosition()
{
    // The same weights read as a copy task: the answer of row t is column t, so the reversal head
    // scores only its middle row (0.9) and the 0.1/3 of the other two.
    const auto scores = crossHeadScores(Task::Copy, reversal());
    QVERIFY(std::abs(scores[0][0].answer - (0.9 + 2 * 0.1 / 3) / 3) < 1e-6);
}

void TestHeadScores::selfScoresSameAndPrevious()
{
    LayeredAttention self;
    self.rows = self.columns = 3;
    // Row 0 all on itself; rows 1 and 2 half on themselves, half on the one before.
    self.weights = {{{1, 0, 0, 0.5f, 0.5f, 0, 0, 0.5f, 0.5f}}};
    const auto scores = selfHeadScores(self);
    QVERIFY(std::abs(scores[0][0].same - (1 + 0.5 + 0.5) / 3) < 1e-6);
    QVERIFY(std::abs(scores[0][0].previous - 0.5) < 1e-6);  // rows 1 and 2 have a previous position
    QVERIFY(std::isnan(scores[0][0].answer));
}

void TestHeadScores::splitScoresAverageTheSentences()
{
    // The reversal, and a sentence that said <EOS> at once: no cross row to score, no previous
    // position; its NaN must not count.
    const TransformerOutput first = reversal();
    TransformerOutput second;
    second.sourceTokens = {"a", "<EOS>"};
    second.outputTokens = {"<EOS>"};
    second.cross.rows = 1;
    second.cross.columns = 2;
    second.cross.weights = {{{0.3f, 0.7f}, {0.0f, 1.0f}}};
    second.decoderSelf = oneHead(1, {{1.0f}});
    TransformerOutput firstWithSelf = first;
    firstWithSelf.decoderSelf = oneHead(4, {{1, 0, 0, 0, 0.5f, 0.5f, 0, 0, 0, 1, 0, 0, 0, 0, 0.2f, 0.8f}});

    const SplitHeadScores split = averageHeadScores(Task::Reverse, {firstWithSelf, second});
    QCOMPARE(split.sentences, 2);
    QVERIFY(std::abs(split.cross[0][0].answer - 0.9) < 1e-6);  // the second sentence's NaN left out
    QCOMPARE(split.cross[0][1].answer, 0.0);
    // same: (1 + 0.5 + 0 + 0.8) / 4 and 1; previous: (0.5 + 1 + 0.2) / 3 and none.
    QVERIFY(std::abs(split.decoderSelf[0][0].same - ((1 + 0.5 + 0 + 0.8) / 4 + 1) / 2) < 1e-6);
    QVERIFY(std::abs(split.decoderSelf[0][0].previous - (0.5 + 1 + 0.2) / 3) < 1e-6);
    QVERIFY(split.encoderSelf.empty());  // no sentence recorded one
    QCOMPARE(averageHeadScores(Task::Reverse, {}).sentences, 0);
}

void TestHeadScores::splitScoresOfAModelAverageItsSentences()
{
    TransformerModel model(smallTransformer(), Vocabulary({"a", "b", "c", "d", "e"}), Task::Reverse, 9);
    const std::vector<SentencePair> pairs{{{"a", "b", "c"}, {"c", "b", "a"}},
                                          {{"d"}, {"d"}},
                                          {{"e", "a", "d", "b"}, {"b", "d", "a", "e"}},
                                          {{"c", "c"}, {"c", "c"}},
                                          {{"b", "e", "a", "c", "d"}, {"d", "c", "a", "e", "b"}}};
    const SplitHeadScores split = splitHeadScores(*model.inference(), model.vocabulary(), model.task(), pairs);
    QCOMPARE(split.sentences, int(pairs.size()));
    std::vector<std::vector<std::vector<HeadScore>>> cross, encoderSelf, decoderSelf;
    for (const SentencePair &pair : pairs) {
        const TransformerOutput output = model.decode(pair.source);
        cross.push_back(crossHeadScores(model.task(), output));
        encoderSelf.push_back(selfHeadScores(output.encoderSelf));
        decoderSelf.push_back(selfHeadScores(output.decoderSelf));
    }
    QCOMPARE(int(split.cross.size()), 2);
    QCOMPARE(int(split.cross[0].size()), 2);
    compareAverages(cross, split.cross, &HeadScore::answer);
    compareAverages(encoderSelf, split.encoderSelf, &HeadScore::same);
    compareAverages(encoderSelf, split.encoderSelf, &HeadScore::previous);
    compareAverages(decoderSelf, split.decoderSelf, &HeadScore::same);
    compareAverages(decoderSelf, split.decoderSelf, &HeadScore::previous);
}

void TestHeadScores::oneLayerRolloutIsAttentionWithResidual()
{
    std::mt19937 random(3);
    constexpr int kSize = 5;
    constexpr int kHeads = 3;
    const LayeredAttention attention = randomAttention(random, 1, kHeads, kSize, kSize);
    std::vector<double> expected(std::size_t(kSize) * kSize, 0.0);
    for (int r = 0; r < kSize; ++r) {
        double sum = 0;
        for (int c = 0; c < kSize; ++c) {
            double mean = 0;
            for (int h = 0; h < kHeads; ++h)
                mean += attention.weights[0][std::size_t(h)][std::size_t(r * kSize + c)] / kHeads;
            expected[std::size_t(r * kSize + c)] = 0.5 * mean + (r == c ? 0.5 : 0.0);
            sum += expected[std::size_t(r * kSize + c)];
        }
        for (int c = 0; c < kSize; ++c)
            expected[std::size_t(r * kSize + c)] /= sum;
    }
    const RolloutMatrix rollout = selfAttentionRollout(attention);
    compareMatrix(rollout, kSize, kSize, expected);
    QVERIFY(largestRowSumError(rollout) < 1e-6);

    // Rows that do not sum to 1 (a causal row cut short) are renormalised after the residual.
    const RolloutMatrix cut = selfAttentionRollout(oneHead(2, {{0.5f, 0, 0.2f, 0.2f}}));
    compareMatrix(cut, 2, 2, {1, 0, 0.1 / 0.7, 0.6 / 0.7});
}

void TestHeadScores::twoLayerRolloutByHand()
{
    // Layer 1, one head: [[1, 0], [0.5, 0.5]] -> 0.5 A + 0.5 I = [[1, 0], [0.25, 0.75]].
    // Layer 2, two heads [[0, 1], [0, 1]] and [[0, 1], [1, 0]]: mean [[0, 1], [0.5, 0.5]]
    // -> [[0.5, 0.5], [0.25, 0.75]]. Rollout = layer 2 times layer 1:
    // [[0.5 + 0.125, 0.375], [0.25 + 0.1875, 0.5625]].
    LayeredAttention attention;
    attention.rows = attention.columns = 2;
    attention.weights = {{{1, 0, 0.5f, 0.5f}}, {{0, 1, 0, 1}, {0, 1, 1, 0}}};
    const RolloutMatrix rollout = selfAttentionRollout(attention);
    compareMatrix(rollout, 2, 2, {0.625, 0.375, 0.4375, 0.5625});
    QVERIFY(largestRowSumError(rollout) < 1e-6);

    std::mt19937 random(5);
    QVERIFY(largestRowSumError(selfAttentionRollout(randomAttention(random, 6, 4, 7, 7))) < 1e-6);
}

void TestHeadScores::crossRolloutByHand()
{
    // Encoder, one layer: [[0.5, 0.5], [0, 1]] -> E = [[0.75, 0.25], [0, 1]].
    const LayeredAttention encoder = oneHead(2, {{0.5f, 0.5f, 0, 1}});
    // One decoder layer: the source part is 0.5 C E, whatever the self-attention, renormalised: C E.
    LayeredAttention cross;
    cross.rows = 2;
    cross.columns = 2;
    cross.weights = {{{0, 1, 1, 0}}};
    compareMatrix(crossAttentionRollout(encoder, oneHead(2, {{1, 0, 0.5f, 0.5f}}), cross), 2, 2,
                  {0, 1, 0.75, 0.25});

    // Two decoder layers. Layer 1: C1 = I, so F1 = 0.5 C1 E = [[0.375, 0.125], [0, 0.5]].
    // Layer 2: S2 = [[1, 0], [1, 0]] -> S2' = [[1, 0], [0.5, 0.5]], S2' F1 = [[0.375, 0.125],
    // [0.1875, 0.3125]]; C2 = [[0, 1], [1, 0]], C2 E = [[0, 1], [0.75, 0.25]];
    // F2 = 0.5 S2' F1 + 0.5 C2 E = [[0.1875, 0.5625], [0.46875, 0.28125]], rows summing to 0.75.
    cross.weights = {{{1, 0, 0, 1}}, {{0, 1, 1, 0}}};
    const LayeredAttention decoder = oneHead(2, {{1, 0, 0.5f, 0.5f}, {1, 0, 1, 0}});
    const RolloutMatrix rollout = crossAttentionRollout(encoder, decoder, cross);
    compareMatrix(rollout, 2, 2, {0.25, 0.75, 0.625, 0.375});
}

void TestHeadScores::rolloutOfADecodedSentence()
{
    TransformerModel model(smallTransformer(), Vocabulary({"a", "b", "c", "d", "e"}), Task::Reverse, 4);
    const TransformerOutput output = model.decode({"a", "e", "c", "b"});
    const RolloutMatrix encoder = selfAttentionRollout(output.encoderSelf);
    QCOMPARE(encoder.rows, 5);
    QVERIFY(largestRowSumError(encoder) < 1e-6);
    const RolloutMatrix decoder = selfAttentionRollout(output.decoderSelf);
    QVERIFY(largestRowSumError(decoder) < 1e-6);
    for (int r = 0; r < decoder.rows; ++r)  // causal: nothing flows from a later position
        for (int c = r + 1; c < decoder.columns; ++c)
            QCOMPARE(decoder.at(r, c), 0.0f);
    const RolloutMatrix cross = crossAttentionRollout(output.encoderSelf, output.decoderSelf, output.cross);
    QCOMPARE(cross.rows, int(output.outputTokens.size()));
    QCOMPARE(cross.columns, 5);
    QVERIFY(largestRowSumError(cross) < 1e-6);
}

void TestHeadScores::rolloutRefusesShapesThatDoNotFit()
{
    std::mt19937 random(8);
    const LayeredAttention encoder = randomAttention(random, 2, 2, 4, 4);
    const LayeredAttention decoder = randomAttention(random, 2, 2, 3, 3);
    const LayeredAttention cross = randomAttention(random, 2, 2, 3, 4);
    QVERIFY(largestRowSumError(crossAttentionRollout(encoder, decoder, cross)) < 1e-6);
    const auto refuses = [](const std::function<void()> &call, const char *expected) {
        try {
            call();
            QFAIL("accepted");
        } catch (const std::invalid_argument &error) {
            QVERIFY2(QString::fromUtf8(error.what()).contains(QString::fromUtf8(expected)), error.what());
        }
    };
    refuses([&] { selfAttentionRollout(cross); }, "not square");
    refuses([&] { crossAttentionRollout(decoder, decoder, cross); }, "does not fit");
    refuses([&] { crossAttentionRollout(encoder, randomAttention(random, 1, 2, 3, 3), cross); }, "layers");
    LayeredAttention shortHead = encoder;
    shortHead.weights[1][1].pop_back();
    refuses([&] { selfAttentionRollout(shortHead); }, "layer 2, head 2 holds 15 weights");
}

void TestHeadScores::layerHeadMeanByHand()
{
    // reversal(): head 1 puts 0.9 on the answer and 0.1/3 elsewhere, head 2 1 on <EOS>.
    const RolloutMatrix mean = layerHeadMean(reversal().cross, 0);
    std::vector<double> expected(16);
    for (int row = 0; row < 4; ++row)
        for (int column = 0; column < 4; ++column) {
            const bool answer = row < 3 ? column == 2 - row : column == 3;
            const double first = answer ? 0.9 : 0.1 / 3;
            const double second = column == 3 ? 1.0 : 0.0;
            expected[std::size_t(row * 4 + column)] = (first + second) / 2;
        }
    compareMatrix(mean, 4, 4, expected);
    QVERIFY(largestRowSumError(mean) < 1e-6);

    std::mt19937 random(3);
    const LayeredAttention attention = randomAttention(random, 3, 4, 2, 5);
    const RolloutMatrix last = layerHeadMean(attention, 2);
    for (std::size_t i = 0; i < last.values.size(); ++i) {
        double sum = 0;
        for (const std::vector<float> &head : attention.weights[2])
            sum += head[i];
        QVERIFY(std::abs(last.values[i] - sum / 4) < 1e-6);
    }
    for (int layer : {-1, 3})
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, layerHeadMean(attention, layer));
}

void TestHeadScores::decodingAlongItsOwnOutputIsGreedyDecoding()
{
    const Vocabulary vocabulary({"a", "b", "c", "d", "e"});
    TransformerModel model(smallTransformer(), vocabulary, Task::Reverse, 4);
    const std::vector<std::string> words = {"a", "e", "c", "b"};
    const TransformerOutput greedy = model.decode(words);
    // Fed the words it chose itself, the model takes every step as it did.
    const TransformerOutput along = decodeWordsAlong(*model.inference(), vocabulary, words, greedy.outputTokens);
    QCOMPARE(along.sourceTokens, greedy.sourceTokens);
    QCOMPARE(along.outputTokens, greedy.outputTokens);
    QCOMPARE(along.cross.rows, greedy.cross.rows);
    QCOMPARE(along.cross.columns, 5);
    for (std::size_t l = 0; l < greedy.cross.weights.size(); ++l)
        for (std::size_t h = 0; h < greedy.cross.weights[l].size(); ++h)
            for (std::size_t i = 0; i < greedy.cross.weights[l][h].size(); ++i)
                QVERIFY(std::abs(along.cross.weights[l][h][i] - greedy.cross.weights[l][h][i]) < 1e-6f);

    // Fed other words: a row for each, named by them; the first step, fed <SOS> alone, is the same.
    const std::vector<std::string> other = {"d", "zebra", "<EOS>"};
    const TransformerOutput forced = decodeWordsAlong(*model.inference(), vocabulary, words, other);
    QCOMPARE(forced.outputTokens, other);
    QCOMPARE(forced.cross.rows, 3);
    const std::vector<float> &forcedHead = forced.cross.weights[1][0], &greedyHead = greedy.cross.weights[1][0];
    for (std::size_t column = 0; column < 5; ++column)
        QVERIFY(std::abs(forcedHead[column] - greedyHead[column]) < 1e-6f);
}

ATTNSCOPE_TEST(headscores, TestHeadScores)
#include "tst_headscores.moc"
