#include "engine/transformer/headscores.h"

#include "engine/core/dataset.h"

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
