#include "engine/attention/alignmentscore.h"

#include "engine/attention/evaluation.h"
#include "engine/attention/seq2seqmodel.h"

#include <limits>
#include <stdexcept>

namespace {

double shareOf(double part, int steps)
{
    return steps > 0 ? part / steps : std::numeric_limits<double>::quiet_NaN();
}

}

double AlignmentScore::accuracy() const
{
    return shareOf(alignedSteps, steps);
}

double AlignmentScore::meanRightWeight() const
{
    return shareOf(rightWeight, steps);
}

AlignmentScore &AlignmentScore::operator+=(const AlignmentScore &other)
{
    steps += other.steps;
    alignedSteps += other.alignedSteps;
    rightWeight += other.rightWeight;
    return *this;
}

std::vector<int> rightSourcePositions(Task task, const DecodedSentence &sentence)
{
    const int sourceWords = sentence.columns() - 1;  // the last column is the source's <EOS>
    std::vector<int> positions;
    for (int row = 0; row < sentence.rows(); ++row)
        positions.push_back(sentence.outputTokens[std::size_t(row)] == "<EOS>"
                                ? -1
                                : rightSourcePosition(task, sourceWords, row));
    return positions;
}

AlignmentScore scoreAlignment(Task task, const DecodedSentence &sentence)
{
    AlignmentScore score;
    if (sentence.attention.empty())
        return score;
    const std::vector<int> right = rightSourcePositions(task, sentence);
    for (int row = 0; row < sentence.rows(); ++row) {
        const int column = right[std::size_t(row)];
        if (column < 0)
            continue;
        const float weight = sentence.weight(row, column);
        bool alone = true;
        for (int other = 0; other < sentence.columns() && alone; ++other)
            alone = other == column || sentence.weight(row, other) < weight;
        ++score.steps;
        score.alignedSteps += alone;
        score.rightWeight += double(weight);
    }
    return score;
}

AlignmentScore scoreAlignment(Task task, const std::vector<DecodedSentence> &sentences)
{
    AlignmentScore total;
    for (const DecodedSentence &sentence : sentences)
        total += scoreAlignment(task, sentence);
    return total;
}

AlignmentScore measureAlignment(const Seq2SeqModel &model, const std::vector<SentencePair> &data, Task task)
{
    if (!model.hasAttention())
        throw std::invalid_argument("a model without attention (variant none) has no alignment to measure");
    return scoreAlignment(task, decodeAll(model, data, DecodeMode::Batched));
}
