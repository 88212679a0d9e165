#include "tests/common/testregistry.h"
#include "engine/selfattention/attentionreflection.h"
#include "engine/selfattention/partsofspeech.h"
#include "engine/selfattention/positionalencoding.h"
#include "engine/selfattention/selfattentioninputs.h"
#include "engine/selfattention/sentencecomparison.h"

#include <QtTest>

#include <cmath>
#include <stdexcept>

namespace {

// The attention of `words` with random X and W from seed 7, with or without positions.
ScaledDotProductAttention attentionOf(const std::vector<std::string> &words, bool positions)
{
    const SelfAttentionInputs in = SelfAttentionInputs::random(words, 4, 3, 7);
    return ScaledDotProductAttention::compute(positions ? withPositions(in.x) : in.x, in.wq, in.wk, in.wv);
}

} // namespace

class TestAttentionReflection : public QObject
{
    Q_OBJECT

private slots:
    void reflectionOfAHandMatrix();
    void reflectionRejectsNonSquare();
    void reorderingPermutesTheMatrixWithoutPositions();
    void positionsMakeOrderVisible();
    void sinusoidalPositionsByHand();
    void anAddedWordChangesRowsOnlyThroughTheSoftmax();
    void repeatedWordsMatchInOrder();
    void courseSentencesCarryTheirParts();
    void attentionByPartByHand();
};

// A = | 0.7 0.2 0.1 |   strongest: 0, 2, 2; entropies by −Σ p ln p; row 2 is uniform-ish,
//     | 0.1 0.3 0.6 |   row 0 the most concentrated.
//     | 0.2 0.3 0.5 |   A − Aᵀ: (0,1) 0.1, (0,2) −0.1, (1,2) 0.3; ‖·‖ = √(2(0.01 + 0.01 + 0.09)).
void TestAttentionReflection::reflectionOfAHandMatrix()
{
    const Matrix a = Matrix::fromRows({{0.7, 0.2, 0.1}, {0.1, 0.3, 0.6}, {0.2, 0.3, 0.5}});
    const AttentionReflection r = reflectOn(a);
    QCOMPARE(r.strongestKey, (std::vector<int>{0, 2, 2}));
    const double h0 = -(0.7 * std::log(0.7) + 0.2 * std::log(0.2) + 0.1 * std::log(0.1));
    QVERIFY(std::abs(r.entropy[0] - h0) < 1e-12);
    QVERIFY(std::abs(h0 - 0.80182) < 1e-5);
    QCOMPARE(r.mostFocused, 0);
    QVERIFY(std::abs(r.asymmetry - std::sqrt(0.22)) < 1e-12);
    QCOMPARE(r.asymmetricQuery, 1);  // a_12 = 0.6 against a_21 = 0.3
    QCOMPARE(r.asymmetricKey, 2);

    const AttentionReflection one = reflectOn(Matrix::fromRows({{1.0}}));
    QCOMPARE(one.asymmetry, 0.0);
    QCOMPARE(one.asymmetricQuery, -1);
    QCOMPARE(one.entropy[0], 0.0);
}

void TestAttentionReflection::reflectionRejectsNonSquare()
{
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, reflectOn(Matrix(2, 3, 0.5)));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, reflectOn(Matrix()));
}

// Scaled dot-product attention is permutation-equivariant: the same word vectors in another order
// give the same matrix with rows and columns permuted.
void TestAttentionReflection::reorderingPermutesTheMatrixWithoutPositions()
{
    const std::vector<std::string> first = {"I", "love", "AI"}, second = {"AI", "I", "love"};
    const ScaledDotProductAttention a = attentionOf(first, false), b = attentionOf(second, false);
    const int permutation[3] = {1, 2, 0};  // where each word of the first stands in the second
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            QVERIFY(std::abs(a.weights.at(i, j) - b.weights.at(permutation[i], permutation[j])) < 1e-6);
    const SentenceComparison c = compareSentences(first, a, second, b);
    QVERIFY(c.reordering);
    QCOMPARE(c.match, (std::vector<int>{1, 2, 0}));
    QVERIFY(c.added.empty());
    QVERIFY(c.largestWeightChange < 1e-6);
    for (double change : c.rowChange)
        QVERIFY(change < 1e-6);
}

void TestAttentionReflection::positionsMakeOrderVisible()
{
    const std::vector<std::string> first = {"I", "love", "AI"}, second = {"AI", "I", "love"};
    const SentenceComparison c =
        compareSentences(first, attentionOf(first, true), second, attentionOf(second, true));
    QVERIFY(c.reordering);
    QVERIFY2(c.largestWeightChange > 1e-3, qPrintable(QString::number(c.largestWeightChange)));
    // The same order with positions is the same matrix: positions depend on the place, not the word.
    const SentenceComparison same = compareSentences(first, attentionOf(first, true), first, attentionOf(first, true));
    QVERIFY(!same.reordering);
    QCOMPARE(same.largestWeightChange, 0.0);
}

void TestAttentionReflection::sinusoidalPositionsByHand()
{
    const Matrix p = sinusoidalPositions(3, 4);
    QCOMPARE(p.at(0, 0), 0.0);
    QCOMPARE(p.at(0, 1), 1.0);
    QVERIFY(std::abs(p.at(1, 0) - std::sin(1.0)) < 1e-12);
    QVERIFY(std::abs(p.at(1, 1) - std::cos(1.0)) < 1e-12);
    QVERIFY(std::abs(p.at(2, 2) - std::sin(2.0 / 100.0)) < 1e-12);  // 10000^(2/4) = 100
    QVERIFY(std::abs(p.at(2, 3) - std::cos(2.0 / 100.0)) < 1e-12);
    const Matrix x = Matrix::fromRows({{1, 2, 3, 4}, {0, 0, 0, 0}, {0, 0, 0, 0}});
    const Matrix shifted = withPositions(x);
    QCOMPARE(shifted.at(0, 1), 3.0);
    QCOMPARE(shifted.at(1, 0), p.at(1, 0));
}

// A new word leaves the scores between the old words alone (each is q_i · k_j of two rows that did
// not change): their weights move only because each softmax now also covers the new word.
void TestAttentionReflection::anAddedWordChangesRowsOnlyThroughTheSoftmax()
{
    const std::vector<std::string> first = {"Students", "learn", "quickly"};
    const std::vector<std::string> second = {"Students", "learn", "deeply", "quickly"};
    const ScaledDotProductAttention a = attentionOf(first, false), b = attentionOf(second, false);
    const SentenceComparison c = compareSentences(first, a, second, b);
    QVERIFY(!c.reordering);
    QCOMPARE(c.match, (std::vector<int>{0, 1, 3}));
    QCOMPARE(c.added, (std::vector<int>{2}));
    QVERIFY(c.largestScoreChange < 1e-12);
    for (int i = 0; i < 3; ++i) {
        const int mi = c.match[std::size_t(i)];
        QCOMPARE(c.addedShare[std::size_t(i)], b.weights.at(mi, 2));
        // Each old weight shrinks by the same factor 1 − share, so the row moves by exactly the share.
        QVERIFY(std::abs(c.rowChange[std::size_t(i)] - c.addedShare[std::size_t(i)]) < 1e-12);
        for (int j = 0; j < 3; ++j)
            QVERIFY(std::abs(b.weights.at(mi, c.match[std::size_t(j)])
                             - a.weights.at(i, j) * (1 - c.addedShare[std::size_t(i)])) < 1e-12);
    }
    // Removing the word again: the first sentence's "deeply" row has no counterpart.
    const SentenceComparison back = compareSentences(second, b, first, a);
    QVERIFY(std::isnan(back.rowChange[2]));
    QVERIFY(std::abs(back.rowChange[0] - c.rowChange[0]) < 1e-12);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, compareSentences(first, a, first, b));
}

void TestAttentionReflection::repeatedWordsMatchInOrder()
{
    const std::vector<std::string> first = {"the", "cat", "the", "mat"}, second = {"the", "mat", "the"};
    const SentenceComparison c = compareSentences(first, attentionOf(first, false), second, attentionOf(second, false));
    QCOMPARE(c.match, (std::vector<int>{0, -1, 2, 1}));
    QVERIFY(c.added.empty());
    QVERIFY(!c.reordering);
}

void TestAttentionReflection::courseSentencesCarryTheirParts()
{
    QCOMPARE(courseTag("I"), PartOfSpeech::Pronoun);
    QCOMPARE(courseTag("loves"), PartOfSpeech::Verb);
    QCOMPARE(courseTag("AI"), PartOfSpeech::Noun);
    QCOMPARE(courseTag("Birds"), PartOfSpeech::Noun);
    QCOMPARE(courseTag("can"), PartOfSpeech::Verb);
    QCOMPARE(courseTag("quickly"), PartOfSpeech::Adverb);
    QCOMPARE(courseTag("deeply"), PartOfSpeech::Adverb);
    QCOMPARE(courseTag("zebra"), PartOfSpeech::Untagged);
    QCOMPARE(QString(partName(PartOfSpeech::Verb)), QString("verb"));
    QCOMPARE(partsOfSpeech().front(), PartOfSpeech::Untagged);
}

// Verbs are rows 1 and 2 of the hand matrix, the noun row 0.
void TestAttentionReflection::attentionByPartByHand()
{
    const Matrix a = Matrix::fromRows({{0.7, 0.2, 0.1}, {0.1, 0.3, 0.6}, {0.2, 0.3, 0.5}});
    const auto parts = attentionByPart(a, {PartOfSpeech::Noun, PartOfSpeech::Verb, PartOfSpeech::Verb});
    QCOMPARE(int(parts.size()), 2);
    QCOMPARE(parts[0].part, PartOfSpeech::Noun);
    QCOMPARE(parts[0].words, 1);
    QVERIFY(std::abs(parts[0].meanSelf - 0.7) < 1e-12);
    QVERIFY(std::abs(parts[0].meanReceived - (0.7 + 0.1 + 0.2) / 3) < 1e-12);
    QVERIFY(std::abs(parts[0].meanEntropy - entropyNats(a, 0)) < 1e-12);
    QCOMPARE(parts[1].part, PartOfSpeech::Verb);
    QCOMPARE(parts[1].words, 2);
    QVERIFY(std::abs(parts[1].meanSelf - 0.4) < 1e-12);
    QVERIFY(std::abs(parts[1].meanReceived - (0.2 + 0.3 + 0.3 + 0.1 + 0.6 + 0.5) / 6) < 1e-12);
    QVERIFY(std::abs(parts[1].meanEntropy - (entropyNats(a, 1) + entropyNats(a, 2)) / 2) < 1e-12);
    QVERIFY(attentionByPart(a, {PartOfSpeech::Untagged, PartOfSpeech::Untagged, PartOfSpeech::Untagged}).empty());
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, attentionByPart(a, {PartOfSpeech::Noun}));
}

ATTNSCOPE_TEST(attentionreflection, TestAttentionReflection)
#include "tst_attentionreflection.moc"
