#include "tests/common/testregistry.h"
#include "engine/transformer/headscores.h"

#include <QtTest>

#include <cmath>

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

}  // namespace

// Each head's share on the known answer (cross-attention) and on its own and the previous position
// (self-attention), from hand-made weights.
class TestHeadScores : public QObject
{
    Q_OBJECT
private slots:
    void crossScoresTheKnownAnswer();
    void copyingReadsTheSamePosition();
    void selfScoresSameAndPrevious();
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

ATTNSCOPE_TEST(headscores, TestHeadScores)
#include "tst_headscores.moc"
