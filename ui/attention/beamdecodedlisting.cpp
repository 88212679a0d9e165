#include "ui/attention/beamdecodedlisting.h"

#include "engine/attention/seq2seqmodel.h"

BeamListing beamDecodedListing(const BeamDecoded &result, const Vocabulary &vocabulary, double alpha)
{
    BeamListing listing;
    listing.alpha = alpha;
    for (const ScoredSentence &s : result.nbest)
        listing.nbest.push_back({QString::fromStdString(s.sentence.text()), s.logProb, s.score});
    const std::vector<int> winner = result.nbest.empty() ? std::vector<int>() : result.nbest.front().tokens;
    listing.steps = keptSteps(result.steps, winner, [&](int id) { return result.word(id, vocabulary); });
    return listing;
}
