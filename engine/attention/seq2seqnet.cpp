#include "engine/attention/seq2seqnet.h"

#include "engine/attention/inferencenet.h"
#include "engine/core/parameterversions.h"
#include "engine/core/vocabulary.h"
#include "engine/fast/singlethreadscope.h"

#include <limits>

namespace {

constexpr int64_t kSingleThreadBatch = 8;

}

Seq2SeqNetImpl::~Seq2SeqNetImpl() = default;

Seq2SeqNetImpl::Seq2SeqNetImpl(int vocabularySize, const ModelConfig &config)
    : encoder(vocabularySize, config)
    , decoder(vocabularySize, config)
{
    register_module("encoder", encoder);
    register_module("decoder", decoder);
}

DecoderMemory Seq2SeqNetImpl::encode(const torch::Tensor &source, const torch::Tensor &lengths, torch::Tensor *hidden)
{
    auto encoded = encoder(source, lengths);
    *hidden = encoded.hidden;
    const auto mask = source != Vocabulary::kPad;
    const auto maskBias = torch::zeros(mask.sizes(), encoded.outputs.options())
                              .masked_fill_(mask.logical_not(), -std::numeric_limits<float>::infinity());
    return {encoded.outputs, decoder->keys(encoded.outputs), mask, maskBias};
}

torch::Tensor Seq2SeqNetImpl::forward(const torch::Tensor &source, const torch::Tensor &lengths,
                                      const torch::Tensor &target, const std::function<bool()> &teacherForce)
{
    torch::Tensor hidden;
    const DecoderMemory memory = encode(source, lengths, &hidden);
    const int64_t steps = target.size(1) - 1;
    // The coin is tossed in the same order as a step-by-step loop would; knowing the answers up
    // front lets every reference input be embedded and projected in one multiply.
    std::vector<int64_t> referenceColumns{0};
    std::vector<bool> forced(std::size_t(steps), false);
    for (int64_t t = 1; t < steps; ++t)
        if ((forced[std::size_t(t)] = teacherForce()))
            referenceColumns.push_back(t);
    const auto columns = torch::tensor(referenceColumns, torch::kLong);
    const auto referenceEmbedded = decoder->dropout(decoder->embedding(target.index_select(1, columns)));
    const FusedDecoderWeights w = decoder->fusedWeights();
    const auto referenceGates = decoder->embeddingGates(w, referenceEmbedded).unbind(1);
    const auto referenceInputs = referenceEmbedded.unbind(1);

    DecoderState state{hidden.unbind(0), {}};
    std::vector<torch::Tensor> outputs, contexts, embeddings;
    std::size_t nextReference = 0;
    torch::Tensor embedded, gates;
    for (int64_t t = 0; t < steps; ++t) {
        if (t == 0 || forced[std::size_t(t)]) {
            embedded = referenceInputs[nextReference];
            gates = referenceGates[nextReference];
            ++nextReference;
        }
        const DecoderStepOutput s = decoder->step(w, gates, state, memory);
        outputs.push_back(s.output);
        if (s.context.defined())
            contexts.push_back(s.context);
        embeddings.push_back(embedded);
        if (t + 1 < steps && !forced[std::size_t(t) + 1]) {
            // Only the argmax is needed here; the logits that are trained come from one multiply below.
            torch::Tensor prediction;
            {
                torch::NoGradGuard noGrad;
                prediction = decoder->logits(w, s.output, s.context, embedded).argmax(1);
            }
            embedded = decoder->dropout(decoder->embedding(prediction));
            gates = decoder->embeddingGates(w, embedded);
        }
    }
    return decoder->logits(w, torch::stack(outputs, 1), contexts.empty() ? torch::Tensor() : torch::stack(contexts, 1),
                           torch::stack(embeddings, 1));
}

GreedyOutput Seq2SeqNetImpl::greedy(const torch::Tensor &source, const torch::Tensor &lengths, int maxSteps,
                                    bool stopAtEos)
{
    const int64_t batch = source.size(0);
    const SingleThreadScope singleThread(batch <= kSingleThreadBatch);
    if (batch == 1 && !is_training() && !torch::GradMode::is_enabled() && InferenceNet::supports(*this))
        return greedyOne(source.narrow(1, 0, lengths[0].item<int64_t>()), maxSteps, stopAtEos);
    torch::Tensor hidden;
    const DecoderMemory memory = encode(source, lengths, &hidden);
    const FusedDecoderWeights w = decoder->fusedWeights();
    torch::Tensor input = torch::full({batch}, Vocabulary::kSos, torch::kLong);
    torch::Tensor done = torch::zeros({batch}, torch::kBool);
    DecoderState state{hidden.unbind(0), {}};
    std::vector<torch::Tensor> tokens, weights;
    for (int t = 0; t < maxSteps; ++t) {
        const auto embedded = decoder->dropout(decoder->embedding(input));
        const DecoderStepOutput s = decoder->step(w, decoder->embeddingGates(w, embedded), state, memory);
        input = decoder->logits(w, s.output, s.context, embedded).argmax(1);
        tokens.push_back(input);
        if (s.weights.defined())
            weights.push_back(s.weights);
        if (!stopAtEos)
            continue;
        done = done.logical_or(input == Vocabulary::kEos);
        if (done.all().item<bool>())
            break;
    }
    return {torch::stack(tokens, 1), weights.empty() ? torch::Tensor() : torch::stack(weights, 1)};
}

void Seq2SeqNetImpl::prepareInference()
{
    inference();
}

bool Seq2SeqNetImpl::inferenceIsCurrent() const
{
    return m_inference && parameterVersions(*this) == m_inferenceVersions;
}

InferenceNet *Seq2SeqNetImpl::inference()
{
    if (!InferenceNet::supports(*this))
        return nullptr;
    ParameterVersions versions = parameterVersions(*this);
    if (!m_inference || versions != m_inferenceVersions) {
        m_inference = std::make_unique<InferenceNet>(*this);
        m_inferenceVersions = std::move(versions);
    }
    return m_inference.get();
}

GreedyOutput Seq2SeqNetImpl::greedyOne(const torch::Tensor &source, int maxSteps, bool stopAtEos)
{
    InferenceNet &net = *inference();
    const torch::Tensor ids = source.to(torch::kLong).contiguous();
    const int64_t *first = ids.data_ptr<int64_t>();
    InferenceNetOutput out = net.greedy(std::vector<int>(first, first + ids.numel()), maxSteps, stopAtEos);
    const int64_t steps = int64_t(out.tokens.size());
    auto tokens = torch::empty({1, steps}, torch::kLong);
    std::copy(out.tokens.begin(), out.tokens.end(), tokens.data_ptr<int64_t>());
    auto weights = torch::empty({1, steps, source.size(1)}, torch::kFloat);
    std::copy(out.weights.begin(), out.weights.end(), weights.data_ptr<float>());
    return {tokens, weights};
}
