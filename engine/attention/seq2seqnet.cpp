#include "engine/attention/seq2seqnet.h"

#include "engine/attention/decoderrecurrence.h"
#include "engine/attention/inferencenet.h"
#include "engine/attention/pointermixture.h"
#include "engine/core/parameterversions.h"
#include "engine/core/vocabulary.h"
#include "engine/fast/singlethreadscope.h"

#include <algorithm>
#include <limits>
#include <tuple>

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

DecoderMemory Seq2SeqNetImpl::encode(const torch::Tensor &source, const torch::Tensor &lengths, DecoderState *start,
                                     const torch::Tensor &embedded)
{
    return memoryOf(encoder->forwardEmbedded(embedded.defined() ? embedded : encoder->embedding(source), lengths),
                    source, start);
}

DecoderMemory Seq2SeqNetImpl::memoryOf(const EncoderOutput &encoded, const torch::Tensor &source, DecoderState *start)
{
    *start = DecoderState{encoded.hidden.unbind(0), encoded.cells.defined() ? encoded.cells.unbind(0) : std::vector<torch::Tensor>(), {}, {}};
    const auto mask = source != Vocabulary::kPad;
    const auto maskBias = torch::zeros(mask.sizes(), encoded.outputs.options())
                              .masked_fill_(mask.logical_not(), -std::numeric_limits<float>::infinity());
    return {encoded.outputs, decoder->keys(encoded.outputs), mask, maskBias};
}

std::pair<torch::Tensor, torch::Tensor> Seq2SeqNetImpl::predict(const FusedDecoderWeights &w, const DecoderStepOutput &step,
                                                                const torch::Tensor &embedded,
                                                                const torch::Tensor &sourceExtended)
{
    const torch::Tensor logits = decoder->logits(w, step.output, step.context, embedded);
    if (!decoder->hasPointer())
        return {logits.argmax(1), {}};
    const torch::Tensor gate = decoder->copyProbability(step.output, step.context, embedded);
    return {pointerDistribution(logits, step.weights, gate, sourceExtended).argmax(1), gate};
}

DecoderStates DecoderStates::range(int64_t begin, int64_t end) const
{
    const auto part = [&](const torch::Tensor &t) { return t.defined() ? t.slice(1, begin, end) : t; };
    return {part(output), part(context), part(embedding), part(weights)};
}

DecoderStates DecoderStepStates::stacked() const
{
    const auto stack = [](const std::vector<torch::Tensor> &v) { return v.empty() ? torch::Tensor() : torch::stack(v, 1); };
    return {stack(output), stack(context), stack(embedding), stack(weights)};
}

DecoderStates DecoderStepStates::step(std::size_t t) const
{
    const auto one = [t](const std::vector<torch::Tensor> &v) { return v.empty() ? torch::Tensor() : v[t].unsqueeze(1); };
    return {one(output), one(context), one(embedding), one(weights)};
}

DecoderStates DecoderStates::detachedLeaves() const
{
    const auto leaf = [](const torch::Tensor &t) { return t.defined() ? t.detach().requires_grad_() : t; };
    return {leaf(output), leaf(context), leaf(embedding), leaf(weights)};
}

std::vector<torch::Tensor> DecoderStates::tensors() const
{
    std::vector<torch::Tensor> defined;
    for (const torch::Tensor *t : {&output, &context, &embedding, &weights})
        if (t->defined())
            defined.push_back(*t);
    return defined;
}

TeacherForcedOutput Seq2SeqNetImpl::forward(const torch::Tensor &source, const torch::Tensor &lengths,
                                            const torch::Tensor &target, const std::function<bool()> &teacherForce,
                                            const torch::Tensor &sourceExtended)
{
    const FusedDecoderWeights w = decoder->fusedWeights();
    return outputs(w, decoderStates(w, source, lengths, target, teacherForce, sourceExtended));
}

TeacherForcedOutput Seq2SeqNetImpl::outputs(const FusedDecoderWeights &w, const DecoderStates &states)
{
    TeacherForcedOutput out{decoder->logits(w, states.output, states.context, states.embedding), {}, {}};
    if (decoder->hasPointer()) {
        out.weights = states.weights;
        out.copyGate = decoder->copyProbability(states.output, states.context, states.embedding);
    }
    return out;
}

std::vector<TeacherForcedOutput> Seq2SeqNetImpl::fromEmbeddings(const torch::Tensor &sourceEmbedded,
                                                                const torch::Tensor &source,
                                                                const torch::Tensor &lengths,
                                                                const torch::Tensor &target,
                                                                const torch::Tensor &sourceExtended,
                                                                const std::vector<int> &steps)
{
    return fromEncoded(encoder->forwardEmbedded(sourceEmbedded, lengths), source, target, sourceExtended, steps);
}

std::vector<TeacherForcedOutput> Seq2SeqNetImpl::fromEncoded(const EncoderOutput &encoded, const torch::Tensor &source,
                                                             const torch::Tensor &target,
                                                             const torch::Tensor &sourceExtended,
                                                             const std::vector<int> &steps)
{
    const FusedDecoderWeights w = decoder->fusedWeights();
    DecoderState start;
    const DecoderMemory memory = memoryOf(encoded, source, &start);
    const DecoderStepStates states =
        stepStates(w, memory, std::move(start), source, target,
                   std::vector<bool>(std::size_t(std::max<int64_t>(target.size(1) - 1, 0)), true), sourceExtended);
    std::vector<TeacherForcedOutput> predictions;
    for (int t : steps)
        predictions.push_back(outputs(w, states.step(std::size_t(t))));
    return predictions;
}

DecoderStates Seq2SeqNetImpl::decoderStates(const FusedDecoderWeights &w, const torch::Tensor &source,
                                            const torch::Tensor &lengths, const torch::Tensor &target,
                                            const std::function<bool()> &teacherForce,
                                            const torch::Tensor &sourceExtended, const torch::Tensor &sourceEmbedded)
{
    const std::vector<bool> forced = forcedSteps(target.size(1) - 1, teacherForce);
    const bool everyStepForced = std::all_of(forced.begin(), forced.end(), [](bool f) { return f; });
    DecoderState state;
    const DecoderMemory memory = encode(source, lengths, &state, sourceEmbedded);
    if (!torch::GradMode::is_enabled() || !everyStepForced || forced.empty() || !decoderRecurrenceSupports(*decoder))
        return stepStates(w, memory, std::move(state), source, target, forced, sourceExtended).stacked();
    const int64_t vocabularySize = decoder->embedding->weight.size(0);
    const torch::Tensor embedded =
        decoder->dropout(decoder->embedding(vocabularyIds(target.narrow(1, 0, target.size(1) - 1), vocabularySize)));
    const auto [output, context] = decoderRecurrence(*decoder, memory.keys, memory.values, memory.maskBias,
                                                     torch::stack(state.layers), decoder->embeddingGates(w, embedded));
    return {output, context, embedded, {}};
}

DecoderStepStates Seq2SeqNetImpl::decoderStepStates(const FusedDecoderWeights &w, const torch::Tensor &source,
                                                    const torch::Tensor &lengths, const torch::Tensor &target,
                                                    const std::function<bool()> &teacherForce,
                                                    const torch::Tensor &sourceExtended,
                                                    const torch::Tensor &sourceEmbedded)
{
    DecoderState state;
    const DecoderMemory memory = encode(source, lengths, &state, sourceEmbedded);
    return stepStates(w, memory, std::move(state), source, target, forcedSteps(target.size(1) - 1, teacherForce),
                      sourceExtended);
}

std::vector<bool> Seq2SeqNetImpl::forcedSteps(int64_t steps, const std::function<bool()> &teacherForce)
{
    std::vector<bool> forced(std::size_t(std::max<int64_t>(steps, 0)), true);
    for (int64_t t = 1; t < steps; ++t)
        forced[std::size_t(t)] = teacherForce();
    return forced;
}

DecoderStepStates Seq2SeqNetImpl::stepStates(const FusedDecoderWeights &w, const DecoderMemory &memory,
                                             DecoderState state, const torch::Tensor &source,
                                             const torch::Tensor &target, const std::vector<bool> &forced,
                                             const torch::Tensor &sourceExtended)
{
    const torch::Tensor extended = sourceExtended.defined() ? sourceExtended : source;
    const int64_t steps = target.size(1) - 1;
    const int64_t vocabularySize = decoder->embedding->weight.size(0);
    // Knowing the coins up front lets every reference input be embedded and projected in one multiply.
    std::vector<int64_t> referenceColumns{0};
    for (int64_t t = 1; t < steps; ++t)
        if (forced[std::size_t(t)])
            referenceColumns.push_back(t);
    const auto columns = torch::tensor(referenceColumns, torch::kLong);
    const auto referenceEmbedded =
        decoder->dropout(decoder->embedding(vocabularyIds(target.index_select(1, columns), vocabularySize)));
    const auto referenceGates = decoder->embeddingGates(w, referenceEmbedded).unbind(1);
    const auto referenceInputs = referenceEmbedded.unbind(1);

    DecoderStepStates states;
    std::size_t nextReference = 0;
    torch::Tensor embedded, gates;
    for (int64_t t = 0; t < steps; ++t) {
        if (t == 0 || forced[std::size_t(t)]) {
            embedded = referenceInputs[nextReference];
            gates = referenceGates[nextReference];
            ++nextReference;
        }
        const DecoderStepOutput s = decoder->step(w, gates, state, memory);
        states.output.push_back(s.output);
        if (s.context.defined())
            states.context.push_back(s.context);
        if (decoder->hasPointer())
            states.weights.push_back(s.weights);
        states.embedding.push_back(embedded);
        if (t + 1 < steps && !forced[std::size_t(t) + 1]) {
            // Only the argmax is needed here; what is trained comes from the multiplies below.
            torch::Tensor prediction;
            {
                torch::NoGradGuard noGrad;
                prediction = vocabularyIds(predict(w, s, embedded, extended).first, vocabularySize);
            }
            embedded = decoder->dropout(decoder->embedding(prediction));
            gates = decoder->embeddingGates(w, embedded);
        }
    }
    return states;
}

GreedyOutput Seq2SeqNetImpl::greedy(const torch::Tensor &source, const torch::Tensor &lengths, int maxSteps,
                                    bool stopAtEos, const torch::Tensor &sourceExtended)
{
    const int64_t batch = source.size(0);
    const SingleThreadScope singleThread(batch <= kSingleThreadBatch);
    if (batch == 1 && !is_training() && !torch::GradMode::is_enabled() && InferenceNet::supports(*this)) {
        const int64_t length = lengths[0].item<int64_t>();
        return greedyOne(source.narrow(1, 0, length), maxSteps, stopAtEos,
                         sourceExtended.defined() ? sourceExtended.narrow(1, 0, length) : torch::Tensor());
    }
    DecoderState state;
    const DecoderMemory memory = encode(source, lengths, &state);
    const torch::Tensor extended = sourceExtended.defined() ? sourceExtended : source;
    const int64_t vocabularySize = decoder->embedding->weight.size(0);
    const FusedDecoderWeights w = decoder->fusedWeights();
    torch::Tensor input = torch::full({batch}, Vocabulary::kSos, torch::kLong);
    torch::Tensor done = torch::zeros({batch}, torch::kBool);
    std::vector<torch::Tensor> tokens, weights, gates;
    for (int t = 0; t < maxSteps; ++t) {
        const auto embedded = decoder->dropout(decoder->embedding(vocabularyIds(input, vocabularySize)));
        const DecoderStepOutput s = decoder->step(w, decoder->embeddingGates(w, embedded), state, memory);
        torch::Tensor gate;
        std::tie(input, gate) = predict(w, s, embedded, extended);
        tokens.push_back(input);
        if (s.weights.defined())
            weights.push_back(s.weights);
        if (gate.defined())
            gates.push_back(gate);
        if (!stopAtEos)
            continue;
        done = done.logical_or(input == Vocabulary::kEos);
        if (done.all().item<bool>())
            break;
    }
    const auto stacked = [](const std::vector<torch::Tensor> &v) { return v.empty() ? torch::Tensor() : torch::stack(v, 1); };
    return {torch::stack(tokens, 1), stacked(weights), stacked(gates)};
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

GreedyOutput Seq2SeqNetImpl::greedyOne(const torch::Tensor &source, int maxSteps, bool stopAtEos,
                                       const torch::Tensor &sourceExtended)
{
    InferenceNet &net = *inference();
    const auto ints = [](const torch::Tensor &t) {
        if (!t.defined())
            return std::vector<int>();
        const torch::Tensor ids = t.to(torch::kLong).contiguous();
        return std::vector<int>(ids.data_ptr<int64_t>(), ids.data_ptr<int64_t>() + ids.numel());
    };
    InferenceNetOutput out = net.greedy(ints(source), maxSteps, stopAtEos, ints(sourceExtended));
    const int64_t steps = int64_t(out.tokens.size());
    auto tokens = torch::empty({1, steps}, torch::kLong);
    std::copy(out.tokens.begin(), out.tokens.end(), tokens.data_ptr<int64_t>());
    auto weights = torch::empty({1, steps, source.size(1)}, torch::kFloat);
    std::copy(out.weights.begin(), out.weights.end(), weights.data_ptr<float>());
    if (out.copyGate.empty())
        return {tokens, weights};
    auto gates = torch::empty({1, steps}, torch::kFloat);
    std::copy(out.copyGate.begin(), out.copyGate.end(), gates.data_ptr<float>());
    return {tokens, weights, gates};
}
