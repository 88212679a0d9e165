#include "engine/transformer/transformerbeamsearch.h"

#include <algorithm>
#include <cmath>

namespace {

// log softmax of each row of `logits` (rows x width), the sum taken in double.
std::vector<float> logSoftmaxRows(const std::vector<float> &logits, int rows)
{
    const std::size_t width = logits.size() / std::size_t(rows);
    std::vector<float> logProbs(logits.size());
    for (std::size_t r = 0; r < std::size_t(rows); ++r) {
        const float *row = logits.data() + r * width;
        const double largest = *std::max_element(row, row + width);
        double sum = 0;
        for (std::size_t i = 0; i < width; ++i)
            sum += std::exp(double(row[i]) - largest);
        const double logSum = largest + std::log(sum);
        for (std::size_t i = 0; i < width; ++i)
            logProbs[r * width + i] = float(double(row[i]) - logSum);
    }
    return logProbs;
}

}  // namespace

TransformerBeam transformerBeamSearch(const TransformerInference &inference, const std::vector<int> &sourceIds,
                                      const BeamOptions &options, int maxSteps, bool recordAttention)
{
    DecodingState state = inference.start(sourceIds, recordAttention);
    const BeamStepFunction step = [&](const std::vector<int> &parents, const std::vector<int> &lastTokens) {
        DecodingStep next = inference.step(state, parents, lastTokens, recordAttention);
        BeamScores scores;
        scores.logProbs = logSoftmaxRows(next.logits, int(lastTokens.size()));
        scores.attention = std::move(next.attention);
        return scores;
    };
    BeamResult found = beamSearch(step, options, maxSteps);

    TransformerBeam beam;
    beam.steps = std::move(found.steps);
    for (BeamHypothesis &hypothesis : found.nbest) {
        TransformerHypothesis &kept = beam.nbest.emplace_back();
        kept.decoded.output = std::move(hypothesis.tokens);
        kept.logProb = hypothesis.logProb;
        kept.score = hypothesis.score;
        if (recordAttention) {
            kept.decoded.encoderSelf = state.encoderSelf;
            inference.unpackAttention(hypothesis.attention, int(kept.decoded.output.size()), state.sourceLength,
                                      kept.decoded);
        }
    }
    return beam;
}
