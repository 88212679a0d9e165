#include "engine/attention/attentioncomparison.h"

#include "engine/attention/outputlogprob.h"
#include "engine/attention/seq2seqmodel.h"
#include "engine/attention/seq2seqnet.h"
#include "engine/core/batch.h"
#include "engine/core/evalmodescope.h"

#include <stdexcept>

DecodedSentence decodeAlong(const Seq2SeqModel &model, const DecodedSentence &along)
{
    DecodedSentence r = along;
    r.attention.clear();
    const Vocabulary &vocabulary = model.vocabulary();
    std::vector<int> source;  // without the final <EOS>: makeSourceBatch adds it
    r.sourceKnown.assign(along.sourceTokens.size(), true);
    for (std::size_t i = 0; i + 1 < along.sourceTokens.size(); ++i) {
        source.push_back(vocabulary.id(along.sourceTokens[i]));
        r.sourceKnown[i] = vocabulary.contains(along.sourceTokens[i]);
    }
    if (!model.hasAttention() || along.outputTokens.empty())
        return r;

    torch::InferenceMode inference;
    EvalModeScope evalMode(model.net());
    Seq2SeqNetImpl &net = *model.net();
    const Batch batch = makeSourceBatch({source});
    DecoderState state;
    const DecoderMemory memory = net.encode(batch.source, batch.sourceLengths, &state);
    const FusedDecoderWeights w = net.decoder->fusedWeights();
    int previous = Vocabulary::kSos;
    for (const int token : emittedTokenIds(model, along)) {
        const torch::Tensor embedded = net.decoder->embedding(torch::full({1}, previous, torch::kLong));
        const DecoderStepOutput step = net.decoder->step(w, net.decoder->embeddingGates(w, embedded), state, memory);
        const torch::Tensor row = step.weights.to(torch::kFloat).contiguous();
        r.attention.insert(r.attention.end(), row.data_ptr<float>(), row.data_ptr<float>() + row.numel());
        previous = token;
    }
    return r;
}

std::vector<float> attentionDifference(const DecodedSentence &a, const DecodedSentence &b)
{
    const auto complete = [](const DecodedSentence &s) {
        return !s.attention.empty() && s.attention.size() == std::size_t(s.rows()) * std::size_t(s.columns());
    };
    if (!complete(a) || !complete(b))
        throw std::invalid_argument("both sentences need an attention matrix to compare");
    if (a.rows() != b.rows() || a.columns() != b.columns())
        throw std::invalid_argument("attention matrices of different shapes cannot be compared cell by cell");
    std::vector<float> difference(a.attention.size());
    for (std::size_t i = 0; i < difference.size(); ++i)
        difference[i] = b.attention[i] - a.attention[i];
    return difference;
}

ComparedModel comparedModel(std::shared_ptr<const Seq2SeqModel> model)
{
    ComparedModel compared;
    compared.decode = [model](const std::string &sentence) { return model->reverse(sentence); };
    compared.decodeAlong = [model](const DecodedSentence &along) { return decodeAlong(*model, along); };
    compared.vocabulary = std::shared_ptr<const Vocabulary>(model, &model->vocabulary());
    compared.lowercase = model->lowercase();
    compared.hasAttention = model->hasAttention();
    return compared;
}

AttentionComparison compareAttention(const Seq2SeqModel &a, const Seq2SeqModel &b, const std::string &sentence)
{
    // Borrowed, not owned: the caller keeps both models for the call.
    return compareAttention(comparedModel(std::shared_ptr<const Seq2SeqModel>(std::shared_ptr<void>(), &a)),
                            comparedModel(std::shared_ptr<const Seq2SeqModel>(std::shared_ptr<void>(), &b)), sentence);
}

AttentionComparison compareAttention(const ComparedModel &a, const ComparedModel &b, const std::string &sentence)
{
    AttentionComparison c;
    c.a = a.decode(sentence);
    c.b = b.decode(sentence);
    if (!a.hasAttention || !b.hasAttention) {
        c.problem = "a model without attention (variant none) has no attention to compare";
    } else if (!a.vocabulary || !b.vocabulary || !(*a.vocabulary == *b.vocabulary) || a.lowercase != b.lowercase) {
        c.problem = "the two models were trained on different words, so their outputs and attention do not "
                    "correspond";
    } else {
        // Both along A's output, by the same computation: identical models differ by exactly zero.
        c.difference = attentionDifference(a.decodeAlong(c.a), b.decodeAlong(c.a));
    }
    return c;
}
