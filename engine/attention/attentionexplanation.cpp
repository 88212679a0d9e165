#include "engine/attention/attentionexplanation.h"

#include "engine/attention/seq2seqmodel.h"
#include "engine/attention/seq2seqnet.h"
#include "engine/attention/seq2seqweights.h"
#include "engine/core/batch.h"
#include "engine/core/evalmodescope.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace {

std::vector<double> valuesOf(const torch::Tensor &t)
{
    const torch::Tensor d = t.to(torch::kDouble).contiguous();
    return std::vector<double>(d.data_ptr<double>(), d.data_ptr<double>() + d.numel());
}

double dot(const std::vector<double> &a, const std::vector<double> &b)
{
    double sum = 0;
    for (std::size_t i = 0; i < a.size(); ++i)
        sum += a[i] * b[i];
    return sum;
}

// The id the decoder read for output word `t`: a word copied in place of <UNK> was <UNK>.
int outputId(const DecodedSentence &sentence, int t, const Vocabulary &vocabulary)
{
    const std::size_t i = std::size_t(t);
    return sentence.outputCopied[i] ? Vocabulary::kUnk : vocabulary.id(sentence.outputTokens[i]);
}

void checkCell(const Seq2SeqModel &model, const DecodedSentence &sentence, int step, int position)
{
    if (!model.hasAttention())
        throw std::invalid_argument("this model has no attention (variant none): there is no weight to explain");
    const std::size_t columns = sentence.sourceTokens.size();
    if (columns < 1 || columns > std::size_t(Seq2SeqModel::kMaxInputTokens) + 1
        || sentence.sourceTokens.back() != "<EOS>" || sentence.outputCopied.size() != sentence.outputTokens.size())
        throw std::invalid_argument("the sentence is not one this model decoded");
    if (step < 0 || step >= sentence.rows() || position < 0 || position >= sentence.columns())
        throw std::invalid_argument("no cell (" + std::to_string(step) + ", " + std::to_string(position)
                                    + ") in a sentence of " + std::to_string(sentence.rows()) + " x "
                                    + std::to_string(sentence.columns()));
}

}

AttentionExplanation explainAttention(const Seq2SeqModel &model, const DecodedSentence &sentence, int step,
                                      int position)
{
    checkCell(model, sentence, step, position);
    const Vocabulary &vocabulary = model.vocabulary();
    std::vector<int> source;
    for (std::size_t i = 0; i + 1 < sentence.sourceTokens.size(); ++i)
        source.push_back(vocabulary.id(sentence.sourceTokens[i]));

    // As decodeBatch() runs the model: inference mode, eval mode, the same encoder and step.
    torch::InferenceMode inference;
    Seq2SeqNet &net = model.net();
    EvalModeScope evalMode(net);
    const Batch batch = makeSourceBatch({source});
    DecoderState state;
    const DecoderMemory memory = net->encode(batch.source, batch.sourceLengths, &state);
    Decoder &decoder = net->decoder;
    const FusedDecoderWeights w = decoder->fusedWeights();
    torch::Tensor before;    // the top layer's state before step `step`
    torch::Tensor previous;  // location: the weights of the step before it
    for (int t = 0; t <= step; ++t) {
        const int64_t input = t == 0 ? Vocabulary::kSos : outputId(sentence, t - 1, vocabulary);
        const auto embedded = decoder->embedding(torch::tensor({input}, torch::kLong));
        before = state.layers.back();
        previous = state.previousWeights.defined() ? state.previousWeights : torch::zeros_like(memory.maskBias);
        decoder->step(w, decoder->embeddingGates(w, embedded), state, memory);
    }

    AttentionExplanation e;
    e.kind = model.config().attention;
    e.cell = model.config().cell;
    e.step = step;
    e.position = position;
    const torch::Tensor values = memory.values[0].to(torch::kDouble);  // (S, H)
    const torch::Tensor keys = memory.keys[0].to(torch::kDouble);      // (S, A or H)
    torch::Tensor scores;
    if (e.kind == AttentionKind::Bahdanau || e.kind == AttentionKind::Location
        || e.kind == AttentionKind::BahdanauAfter) {
        const DecoderWeights p = weightsOf(*decoder);
        const torch::Tensor s =
            (e.kind == AttentionKind::BahdanauAfter ? state.layers.back() : before)[0].to(torch::kDouble);
        const torch::Tensor query = torch::matmul(p.queryWeight.to(torch::kDouble), s);
        torch::Tensor moved = keys;
        if (e.kind == AttentionKind::Location) {
            const torch::Tensor location = decoder->location->locationTerm(previous)[0].to(torch::kDouble);  // (S, A)
            moved = keys + location;
            e.location = valuesOf(location[position]);
            e.previousWeights = valuesOf(previous[0]);
        }
        const torch::Tensor energy = torch::tanh(moved + query);  // (S, A)
        const torch::Tensor v = p.scoreWeight[0].to(torch::kDouble);
        scores = torch::matmul(energy, v);
        e.state = valuesOf(s);
        e.query = valuesOf(query);
        e.energy = valuesOf(energy[position]);
        e.scoreWeights = valuesOf(v);
    } else {
        const torch::Tensor s = state.layers.back()[0].to(torch::kDouble);
        scores = torch::matmul(keys, s);
        e.state = valuesOf(s);
    }
    e.encoderState = valuesOf(values[position]);
    e.key = valuesOf(keys[position]);
    e.scores = valuesOf(scores);
    const torch::Tensor weights = torch::softmax(scores, 0);
    e.weights = valuesOf(weights);
    e.context = valuesOf(torch::matmul(weights, values));
    for (double x : e.encoderState)
        e.share.push_back(e.weight() * x);
    const double contextSquared = dot(e.context, e.context);
    if (contextSquared > 0) {
        e.shareNormRatio = std::sqrt(dot(e.share, e.share) / contextSquared);
        e.shareAlongContext = dot(e.share, e.context) / contextSquared;
    }
    return e;
}
