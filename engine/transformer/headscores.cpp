#include "engine/transformer/headscores.h"

#include "engine/core/dataset.h"

#include <cmath>
#include <limits>

namespace {

constexpr double kNone = std::numeric_limits<double>::quiet_NaN();

// The mean of weights[row * columns + column(row)] over the rows where column(row) >= 0.
template <typename Column>
double meanShare(const std::vector<float> &weights, int rows, int columns, const Column &column)
{
    double sum = 0;
    int counted = 0;
    for (int row = 0; row < rows; ++row) {
        const int c = column(row);
        if (c < 0 || c >= columns)
            continue;
        sum += weights[std::size_t(row) * std::size_t(columns) + std::size_t(c)];
        ++counted;
    }
    return counted > 0 ? sum / counted : kNone;
}

}  // namespace

std::vector<std::vector<HeadScore>> crossHeadScores(Task task, const TransformerOutput &output)
{
    const LayeredAttention &cross = output.cross;
    const int sourceWords = int(output.sourceTokens.size()) - 1;  // the last is <EOS>
    const auto answer = [&](int row) {
        return output.outputTokens[std::size_t(row)] == "<EOS>" ? -1 : rightSourcePosition(task, sourceWords, row);
    };
    std::vector<std::vector<HeadScore>> scores;
    for (const auto &layer : cross.weights) {
        std::vector<HeadScore> heads;
        for (const std::vector<float> &head : layer)
            heads.push_back({meanShare(head, cross.rows, cross.columns, answer), kNone, kNone});
        scores.push_back(std::move(heads));
    }
    return scores;
}

std::vector<std::vector<HeadScore>> selfHeadScores(const LayeredAttention &attention)
{
    std::vector<std::vector<HeadScore>> scores;
    for (const auto &layer : attention.weights) {
        std::vector<HeadScore> heads;
        for (const std::vector<float> &head : layer)
            heads.push_back({kNone, meanShare(head, attention.rows, attention.columns, [](int row) { return row; }),
                             meanShare(head, attention.rows, attention.columns, [](int row) { return row - 1; })});
        scores.push_back(std::move(heads));
    }
    return scores;
}

namespace {

// Per layer and head, the sums and counts of the scores that are not NaN.
class HeadScoreSums
{
public:
    void add(const std::vector<std::vector<HeadScore>> &scores)
    {
        if (m_sums.empty()) {
            m_sums.resize(scores.size());
            for (std::size_t l = 0; l < scores.size(); ++l)
                m_sums[l].assign(scores[l].size(), Sum{});
        }
        for (std::size_t l = 0; l < scores.size() && l < m_sums.size(); ++l)
            for (std::size_t h = 0; h < scores[l].size() && h < m_sums[l].size(); ++h) {
                Sum &sum = m_sums[l][h];
                addIfScored(sum.answer, sum.answers, scores[l][h].answer);
                addIfScored(sum.same, sum.sames, scores[l][h].same);
                addIfScored(sum.previous, sum.previouses, scores[l][h].previous);
            }
    }

    std::vector<std::vector<HeadScore>> means() const
    {
        std::vector<std::vector<HeadScore>> means;
        for (const auto &layer : m_sums) {
            std::vector<HeadScore> heads;
            for (const Sum &s : layer)
                heads.push_back({mean(s.answer, s.answers), mean(s.same, s.sames), mean(s.previous, s.previouses)});
            means.push_back(std::move(heads));
        }
        return means;
    }

private:
    struct Sum {
        double answer = 0, same = 0, previous = 0;
        int answers = 0, sames = 0, previouses = 0;
    };

    static void addIfScored(double &sum, int &count, double score)
    {
        if (std::isnan(score))
            return;
        sum += score;
        ++count;
    }
    static double mean(double sum, int count) { return count > 0 ? sum / count : kNone; }

    std::vector<std::vector<Sum>> m_sums;
};

// Adds one sentence's scores to the sums of a split.
struct SplitSums {
    HeadScoreSums encoderSelf, decoderSelf, cross;
    int sentences = 0;

    void add(Task task, const TransformerOutput &output)
    {
        encoderSelf.add(selfHeadScores(output.encoderSelf));
        decoderSelf.add(selfHeadScores(output.decoderSelf));
        cross.add(crossHeadScores(task, output));
        ++sentences;
    }

    SplitHeadScores result() const { return {sentences, encoderSelf.means(), decoderSelf.means(), cross.means()}; }
};

}  // namespace

SplitHeadScores averageHeadScores(Task task, const std::vector<TransformerOutput> &outputs)
{
    SplitSums sums;
    for (const TransformerOutput &output : outputs)
        sums.add(task, output);
    return sums.result();
}

SplitHeadScores splitHeadScores(const TransformerInference &inference, const Vocabulary &vocabulary, Task task,
                                const std::vector<SentencePair> &pairs)
{
    SplitSums sums;
    for (const SentencePair &pair : pairs)
        sums.add(task, decodeWords(inference, vocabulary, pair.source));
    return sums.result();
}
