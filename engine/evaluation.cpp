#include "evaluation.h"

#include "seq2seqmodel.h"
#include "tokenizer.h"

#include <algorithm>

namespace {
constexpr std::size_t kBatch = 64;
}

EvaluationReport evaluate(const Seq2SeqModel &model, const std::vector<SentencePair> &data, DecodeMode mode)
{
    std::vector<DecodedSentence> decoded;
    decoded.reserve(data.size());
    for (std::size_t start = 0; start < data.size();) {
        const std::size_t count = mode == DecodeMode::Batched ? std::min(kBatch, data.size() - start) : 1;
        std::vector<std::vector<std::string>> sources;
        for (std::size_t i = start; i < start + count; ++i)
            sources.push_back(data[i].source);
        for (auto &d : model.decodeBatch(sources))
            decoded.push_back(std::move(d));
        start += count;
    }

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
