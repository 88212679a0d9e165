#include "engine/attention/evaluation.h"

#include "engine/attention/seq2seqmodel.h"
#include "engine/attention/seq2seqnet.h"
#include "engine/core/evalmodescope.h"
#include "engine/core/tokenizer.h"
#include "engine/fast/parallelfor.h"

#include <algorithm>
#include <atomic>
#include <thread>

namespace {
constexpr std::size_t kBatch = 64;
}

std::vector<DecodedSentence> decodeAll(const Seq2SeqModel &model, const std::vector<SentencePair> &data,
                                       DecodeMode mode)
{
    const std::size_t chunk = mode == DecodeMode::Batched ? kBatch : 1;
    const std::size_t chunks = (data.size() + chunk - 1) / chunk;
    std::vector<std::vector<DecodedSentence>> decodedChunks(chunks);
    std::atomic<std::size_t> next{0};
    auto decodeChunks = [&](int) {
        for (std::size_t c; (c = next++) < chunks;) {
            std::vector<std::vector<std::string>> sources;
            for (std::size_t i = c * chunk; i < std::min(data.size(), (c + 1) * chunk); ++i)
                sources.push_back(data[i].source);
            decodedChunks[c] = model.decodeBatch(sources);
        }
    };
    // Batches decode on two threads, each running single-threaded ops (as training's shards do):
    // twice as fast. In eval mode the decodes only read the network; only batches go in
    // parallel, so a batch of one sentence, whose InferenceNet keeps scratch state, can only be
    // the last.
    const bool shared = mode == DecodeMode::Batched && chunks > 1 && std::thread::hardware_concurrency() > 1;
    const EvalModeScope evalMode(model.net());
    parallelFor(shared ? 2 : 1, decodeChunks, Workers::PooledSingleThreadedOps);
    std::vector<DecodedSentence> decoded;
    decoded.reserve(data.size());
    for (auto &c : decodedChunks)
        for (auto &d : c)
            decoded.push_back(std::move(d));
    return decoded;
}

EvaluationReport evaluate(const Seq2SeqModel &model, const std::vector<SentencePair> &data, DecodeMode mode)
{
    const std::vector<DecodedSentence> decoded = decodeAll(model, data, mode);
    EvaluationReport report;
    report.sentences = int(data.size());
    int exact = 0;
    long tokensRight = 0, tokens = 0;
    for (std::size_t i = 0; i < data.size(); ++i) {
        const auto &reference = data[i].target;
        const auto output = decoded[i].words();
        const bool match = output == reference;
        exact += match;
        for (std::size_t k = 0; k < reference.size(); ++k)
            tokensRight += k < output.size() && output[k] == reference[k];
        tokens += long(reference.size());
        LengthAccuracy &bucket = report.byLength[int(reference.size())];
        bucket.correct += match;
        ++bucket.total;
        const auto &source = data[i].source;
        if (std::any_of(source.begin(), source.end(), [&](const std::string &w) { return !model.vocabulary().contains(w); })) {
            report.withUnknownWords.correct += match;
            ++report.withUnknownWords.total;
        }
        report.examples.push_back({joinTokens(data[i].source), joinTokens(output), joinTokens(reference), match});
    }
    report.exactMatch = data.empty() ? 0.0 : double(exact) / double(data.size());
    report.tokenAccuracy = tokens ? double(tokensRight) / double(tokens) : 0.0;
    return report;
}

std::string formatExample(const Example &e)
{
    return "Input: \"" + e.input + "\"  Output: \"" + e.output + "\"  Reference: \"" + e.reference + "\"  "
           + (e.match ? "match" : "no match");
}
