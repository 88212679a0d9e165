#include "engine/selfattention/sentencecomparison.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>

namespace {

// Per word of `from`: the position of the same occurrence of that word in `to`, or -1.
std::vector<int> matchWords(const std::vector<std::string> &from, const std::vector<std::string> &to)
{
    std::map<std::string, std::vector<int>> positions;
    for (int i = int(to.size()) - 1; i >= 0; --i)
        positions[to[std::size_t(i)]].push_back(i);
    std::vector<int> match;
    for (const std::string &word : from) {
        auto &free = positions[word];
        match.push_back(free.empty() ? -1 : free.back());
        if (!free.empty())
            free.pop_back();
    }
    return match;
}

} // namespace

SentenceComparison compareSentences(const std::vector<std::string> &firstTokens, const ScaledDotProductAttention &first,
                                    const std::vector<std::string> &secondTokens,
                                    const ScaledDotProductAttention &second)
{
    if (int(firstTokens.size()) != first.tokens() || int(secondTokens.size()) != second.tokens())
        throw std::invalid_argument("each sentence needs one row of attention per word");
    SentenceComparison c;
    c.match = matchWords(firstTokens, secondTokens);
    std::vector<bool> matched(secondTokens.size(), false);
    for (int m : c.match)
        if (m >= 0)
            matched[std::size_t(m)] = true;
    for (int j = 0; j < int(secondTokens.size()); ++j)
        if (!matched[std::size_t(j)])
            c.added.push_back(j);
    const bool allMatched = std::find(c.match.begin(), c.match.end(), -1) == c.match.end();
    c.reordering = allMatched && c.added.empty() && firstTokens != secondTokens;

    const double missing = std::numeric_limits<double>::quiet_NaN();
    const int n = first.tokens();
    for (int i = 0; i < n; ++i) {
        const int mi = c.match[std::size_t(i)];
        if (mi < 0) {
            c.rowChange.push_back(missing);
            c.addedShare.push_back(missing);
            continue;
        }
        double absoluteChange = 0;
        for (int j = 0; j < n; ++j) {
            const int mj = c.match[std::size_t(j)];
            if (mj < 0) {
                absoluteChange += first.weights.at(i, j);
                continue;
            }
            const double change = std::abs(first.weights.at(i, j) - second.weights.at(mi, mj));
            absoluteChange += change;
            c.largestWeightChange = std::max(c.largestWeightChange, change);
            c.largestScoreChange =
                std::max(c.largestScoreChange, std::abs(first.scores.at(i, j) - second.scores.at(mi, mj)));
        }
        double added = 0;
        for (int j : c.added)
            added += second.weights.at(mi, j);
        c.rowChange.push_back((absoluteChange + added) / 2);
        c.addedShare.push_back(added);
    }
    return c;
}
