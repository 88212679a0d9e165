#include "engine/core/beamsearch.h"

#include "engine/core/vocabulary.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

std::string validate(const BeamOptions &o)
{
    std::ostringstream out;
    if (o.width < 1 || o.width > kMaxBeamWidth)
        out << "beam width must be between 1 and " << kMaxBeamWidth << " (got " << o.width << ")";
    else if (!(o.alpha >= 0 && o.alpha <= kMaxLengthAlpha))
        out << "length normalisation alpha must be between 0 and " << kMaxLengthAlpha << " (got " << o.alpha << ")";
    else if (o.nbest < 1 || o.nbest > o.width)
        out << "the n-best count must be between 1 and the beam width " << o.width << " (got " << o.nbest << ")";
    return out.str();
}

namespace {

struct LiveHypothesis {
    std::vector<int> tokens;
    double logProb = 0;
    std::vector<float> attention;
    std::vector<float> copyGate;
};

// One token appended to one live hypothesis.
struct Candidate {
    double logProb;
    int row;
    int token;
};

// Higher log-probability first; ties go to the lower row, then the lower token, as argmax takes
// the first maximum: width 1 is then exactly greedy decoding.
bool ranksBefore(const Candidate &a, const Candidate &b)
{
    if (a.logProb != b.logProb)
        return a.logProb > b.logProb;
    return a.row != b.row ? a.row < b.row : a.token < b.token;
}

double normalisedScore(double logProb, std::size_t length, double alpha)
{
    return logProb / std::pow(double(length), alpha);
}

}

BeamResult beamSearch(const BeamStepFunction &step, const BeamOptions &options, int maxLength)
{
    const std::string problem = validate(options);
    if (!problem.empty())
        throw std::invalid_argument("invalid beam search settings: " + problem);
    if (maxLength < 1)
        throw std::invalid_argument("beam search needs a maximum length of at least 1 (got "
                                    + std::to_string(maxLength) + ")");

    BeamResult result;
    std::vector<BeamHypothesis> finished;
    std::vector<LiveHypothesis> live(1);
    std::vector<int> parents{0}, lastTokens{Vocabulary::kSos};
    for (int t = 0; t < maxLength && !live.empty(); ++t) {
        const BeamScores scores = step(parents, lastTokens);
        const std::size_t rows = live.size();
        if (scores.logProbs.empty() || scores.logProbs.size() % rows != 0 || scores.attention.size() % rows != 0
            || (!scores.copyGate.empty() && scores.copyGate.size() != rows))
            throw std::logic_error("beam search: the step function returned scores for the wrong number of rows");
        const std::size_t vocabularySize = scores.logProbs.size() / rows;
        const std::size_t attentionWidth = scores.attention.size() / rows;

        std::vector<Candidate> candidates;
        candidates.reserve(scores.logProbs.size());
        for (std::size_t row = 0; row < rows; ++row)
            for (std::size_t token = 0; token < vocabularySize; ++token) {
                const float logProb = scores.logProbs[row * vocabularySize + token];
                if (std::isfinite(logProb))  // -inf is probability 0: no continuation at all
                    candidates.push_back({live[row].logProb + logProb, int(row), int(token)});
            }
        // Finished hypotheses keep their slots, so the beam narrows as they finish and the search
        // ends with `width` of them. All candidates have the same length here, so ranking them by
        // log-probability ranks them by normalised score too.
        const std::size_t slots = std::min(candidates.size(), std::size_t(options.width) - finished.size());
        std::partial_sort(candidates.begin(), candidates.begin() + std::ptrdiff_t(slots), candidates.end(), ranksBefore);

        std::vector<LiveHypothesis> next;
        parents.clear();
        lastTokens.clear();
        BeamStep &kept = result.steps.emplace_back();
        for (std::size_t i = 0; i < slots; ++i) {
            const Candidate &c = candidates[i];
            LiveHypothesis grown = live[std::size_t(c.row)];
            grown.tokens.push_back(c.token);
            grown.logProb = c.logProb;
            const float *attentionRow = scores.attention.data() + std::size_t(c.row) * attentionWidth;
            grown.attention.insert(grown.attention.end(), attentionRow, attentionRow + attentionWidth);
            if (!scores.copyGate.empty())
                grown.copyGate.push_back(scores.copyGate[std::size_t(c.row)]);
            const bool ended = c.token == Vocabulary::kEos;
            const double score = normalisedScore(grown.logProb, grown.tokens.size(), options.alpha);
            kept.kept.push_back({grown.tokens, grown.logProb, score, ended});
            if (ended || t + 1 == maxLength) {
                finished.push_back({std::move(grown.tokens), grown.logProb, score, std::move(grown.attention),
                                    std::move(grown.copyGate)});
            } else {
                parents.push_back(c.row);
                lastTokens.push_back(c.token);
                next.push_back(std::move(grown));
            }
        }
        live = std::move(next);
    }

    std::stable_sort(finished.begin(), finished.end(),
                     [](const BeamHypothesis &a, const BeamHypothesis &b) { return a.score > b.score; });
    if (finished.size() > std::size_t(options.nbest))
        finished.resize(std::size_t(options.nbest));
    result.nbest = std::move(finished);
    return result;
}
