#include "app/attention/decodelatency.h"

#include "engine/attention/seq2seqmodel.h"

benchfigures::Latency measureDecodeLatency(const Seq2SeqModel &model, const SentencePair &sentence,
                                           const BeamOptions &beam)
{
    return benchfigures::timeCalls([&] {
        const DecodedSentence out = beam.width == 1 ? model.decode(sentence.source)
                                                    : model.beamDecode(sentence.source, beam).nbest.front().sentence;
        return out.words() == sentence.target;
    });
}
