#include "engine/charlm/chartrainer.h"

#include "engine/charlm/recurrentstack.h"
#include "engine/core/adagrad.h"
#include "engine/core/adam.h"
#include "engine/core/elapsed.h"
#include "engine/core/gradientclipping.h"
#include "engine/core/runtime.h"
#include "engine/core/sgd.h"
#include "engine/core/torchapi.h"
#include "engine/core/trainingfields.h"
#include "engine/fast/parallelfor.h"
#include "engine/fast/singlethreadscope.h"
#include "engine/fast/vectorsum.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <limits>
#include <memory>
#include <numeric>
#include <sstream>
#include <stdexcept>

namespace {

using Clock = std::chrono::steady_clock;

// Evaluation reads one stream in windows of this many characters (the state carried between
// them): long enough that the multiplies over all steps are large, short enough to stay in cache.
constexpr int kEvaluationSteps = 512;

const double kLn2 = std::log(2.0);

// CharWeights' vectors in charParameterShapes' order.
std::vector<std::vector<float> *> parameterVectors(CharWeights &w)
{
    std::vector<std::vector<float> *> vectors;
    if (w.config.embed > 0)
        vectors.push_back(&w.embedding);
    for (CharLayerWeights &layer : w.layers)
        for (std::vector<float> *v : {&layer.inputWeights, &layer.hiddenWeights, &layer.inputBias, &layer.hiddenBias})
            vectors.push_back(v);
    vectors.push_back(&w.outputWeights);
    vectors.push_back(&w.outputBias);
    return vectors;
}

int64_t elements(const std::vector<int64_t> &shape)
{
    return std::accumulate(shape.begin(), shape.end(), int64_t(1), std::multiplies<int64_t>());
}

std::string number(double value)
{
    std::ostringstream out;
    out << value;
    return out.str();
}

}

struct CharTrainer::Impl {
    CharModelConfig model;
    CharTrainingConfig training;
    int threads = 1;  // training.threads, with 0 resolved to every core
    std::u32string alphabet;
    std::vector<int32_t> ids;
    int64_t trainLength = 0;

    // Every parameter in one flat tensor, in charParameterShapes' order; `parameters` are views of
    // it (and their gradients views of `gradients`), as the optimisers and clipping take them.
    torch::Tensor values, gradients;
    std::vector<torch::Tensor> parameters;
    std::unique_ptr<Optimizer> optimizer;

    int epochsDone = 0;
    int64_t iteration = 0;

    Impl(const CharText &text, const CharModelConfig &modelConfig, const CharTrainingConfig &trainingConfig);
    int alphabetSize() const { return int(alphabet.size()); }
    CharParameterView<const float> view() const;
    CharParameterView<float> gradientView(float *flat) const;
    double bitsPerChar(int64_t begin, int64_t end) const;
    [[noreturn]] void diverged(int epoch, int64_t window, int64_t windows) const;

    struct EpochReader;
};

CharTrainer::Impl::Impl(const CharText &text, const CharModelConfig &modelConfig, const CharTrainingConfig &trainingConfig)
    : model(modelConfig)
    , training(trainingConfig)
    , threads(resolvedThreads(trainingConfig.threads))
    , alphabet(text.alphabet)
    , ids(text.ids)
    , trainLength(text.trainLength)
{
    for (const std::string &problem : {validate(model), validate(training)})
        if (!problem.empty())
            throw std::invalid_argument(problem);
    if (alphabet.size() < 2)
        throw std::invalid_argument("The text has fewer than two distinct characters: there is nothing to learn.");
    if (trainLength < 2 || trainLength > text.length())
        throw std::invalid_argument("The text has no characters to train on.");
    for (int32_t id : ids)
        if (id < 0 || id >= alphabetSize())
            throw std::invalid_argument("The text's characters are not all in its alphabet.");

    if (training.wholeText) {
        if (trainLength > kMaxWholeTextLength)
            throw std::invalid_argument("Whole-text training backpropagates through every character at once: this "
                                        "text has " + std::to_string(trainLength) + " training characters, more "
                                        "than " + std::to_string(kMaxWholeTextLength) + ". Train it in windows.");
        // One stream whose one window is the whole text: the state starts from zero each epoch.
        training.batch = 1;
        training.seqLen = int(trainLength - 1);
    }

    int64_t count = 0;
    const std::vector<std::vector<int64_t>> shapes = charParameterShapes(model, alphabetSize());
    for (const auto &shape : shapes)
        count += elements(shape);
    values = torch::empty({count});
    gradients = torch::zeros({count});
    int64_t offset = 0;
    for (const auto &shape : shapes) {
        const int64_t size = elements(shape);
        torch::Tensor p = values.slice(0, offset, offset + size).view(shape);
        p.mutable_grad() = gradients.slice(0, offset, offset + size).view(shape);
        parameters.push_back(p);
        offset += size;
    }
    switch (training.optimizer) {
    case CharOptimizer::Adam:
        optimizer = std::make_unique<Adam>(parameters, Adam::Options{training.lr, 0.9, 0.999, 1e-8, 0.0, threads});
        break;
    case CharOptimizer::Adagrad:
        optimizer = std::make_unique<Adagrad>(parameters, Adagrad::Options{training.lr, 1e-10, threads});
        break;
    case CharOptimizer::Sgd:
        optimizer = std::make_unique<Sgd>(parameters, Sgd::Options{training.lr, training.momentum, 0.0});
        break;
    }
}

CharParameterView<const float> CharTrainer::Impl::view() const
{
    return {values.data_ptr<float>(), model, alphabetSize()};
}

CharParameterView<float> CharTrainer::Impl::gradientView(float *flat) const
{
    return {flat, model, alphabetSize()};
}

// One stream read from a zero state, without gradients.
double CharTrainer::Impl::bitsPerChar(int64_t begin, int64_t end) const
{
    if (begin < 0 || end > int64_t(ids.size()) || end - begin < 2)
        throw std::invalid_argument("Bits per character need a span of at least two characters of the text.");
    const SingleThreadScope oneThread;
    RecurrentStack stack(model, alphabetSize(), 1, kEvaluationSteps);
    CharWindow window;
    window.rows = 1;
    window.rowSteps.resize(1);
    double loss = 0;
    for (int64_t from = begin; from + 1 < end; from += kEvaluationSteps) {
        window.steps = window.rowSteps[0] = int(std::min<int64_t>(kEvaluationSteps, end - 1 - from));
        window.inputs.assign(ids.begin() + from, ids.begin() + from + window.steps);
        window.targets.assign(ids.begin() + from + 1, ids.begin() + from + 1 + window.steps);
        loss += stack.forward(view(), window, false);
    }
    return loss / double(end - begin - 1) / kLn2;
}

void CharTrainer::Impl::diverged(int epoch, int64_t window, int64_t windows) const
{
    const std::string clipping = training.clip > 0
                                     ? "a tighter gradient clipping (now " + number(training.clip) + ")"
                                     : "gradient clipping (now off; 1 is usual)";
    throw std::runtime_error("Training diverged in epoch " + std::to_string(epoch) + ", window " +
                             std::to_string(window) + " of " + std::to_string(windows) +
                             ": the loss is no longer a finite number. Try a lower learning rate (now " +
                             number(training.lr) + ") or " + clipping + ".");
}

// The training part read as charStreams cuts it: each thread's share of the streams, window by
// window, and the window's gradients summed over the shares into the parameters' gradients.
struct CharTrainer::Impl::EpochReader {
    // One training thread's share of the streams: the network over its rows, the window it reads
    // and, but for the first share's (written straight into the parameters' gradients), its
    // gradients.
    struct StreamShare {
        int firstStream = 0;
        std::unique_ptr<RecurrentStack> stack;
        CharWindow window;
        std::vector<float> gradients;
        double loss = 0;
    };

    explicit EpochReader(const Impl &impl);
    void startEpoch();
    // Fills each share's window w; returns its targets, all shares'.
    int64_t readWindow(int64_t w);
    // The gradients of the window's mean cross-entropy over `targets`, and gradientNorm, their
    // global L2 norm; returns the summed cross-entropy in nats (not finite: the gradients were not
    // computed).
    double gradients(int64_t targets);

    const Impl &m;
    const CharStreams streams;
    std::vector<int64_t> streamTargets;  // all but the last have streamLength; the last what is left
    std::vector<StreamShare> shares;
    std::vector<CharParameterView<float>> shareGradients;
    const CharParameterView<const float> parameters;
    // No clipping is clipping at an infinite norm: the norm is still measured, and one that is not
    // finite stops training.
    const double clip;
    double gradientNorm = 0;
};

CharTrainer::Impl::EpochReader::EpochReader(const Impl &impl)
    : m(impl)
    , streams(charStreams(impl.trainLength, impl.training.batch, impl.training.seqLen))
    , parameters(impl.view())
    , clip(impl.training.clip > 0 ? impl.training.clip : std::numeric_limits<double>::infinity())
{
    for (int s = 0; s < streams.streams; ++s)
        streamTargets.push_back(
            std::clamp<int64_t>(streams.targetsPerEpoch - s * streams.streamLength, 0, streams.streamLength));
    const int seqLen = m.training.seqLen;
    const int parts = std::max(1, std::min(m.threads, streams.streams));
    shares.resize(static_cast<size_t>(parts));
    for (int part = 0; part < parts; ++part) {
        const auto [first, end] = partRange(streams.streams, part, parts);
        StreamShare &share = shares[size_t(part)];
        share.firstStream = first;
        share.stack = std::make_unique<RecurrentStack>(m.model, m.alphabetSize(), end - first, seqLen);
        share.window.rows = end - first;
        share.window.rowSteps.resize(size_t(end - first));
        share.window.inputs.resize(size_t(end - first) * size_t(seqLen));
        share.window.targets.resize(size_t(end - first) * size_t(seqLen));
        if (part > 0)
            share.gradients.resize(size_t(m.values.numel()));
        shareGradients.push_back(
            m.gradientView(part > 0 ? share.gradients.data() : m.gradients.data_ptr<float>()));
    }
}

void CharTrainer::Impl::EpochReader::startEpoch()
{
    for (StreamShare &share : shares)
        share.stack->resetState();
}

int64_t CharTrainer::Impl::EpochReader::readWindow(int64_t w)
{
    const int seqLen = m.training.seqLen;
    int64_t targets = 0;
    for (StreamShare &share : shares) {
        CharWindow &window = share.window;
        window.steps = 0;
        for (int b = 0; b < window.rows; ++b) {
            const int64_t stream = share.firstStream + b;
            // Up to seqLen targets, fewer at the stream's end.
            const int steps = int(std::clamp<int64_t>(streamTargets[size_t(stream)] - w * seqLen, 0, seqLen));
            window.rowSteps[size_t(b)] = steps;
            window.steps = std::max(window.steps, steps);
            targets += steps;
            const int64_t from = stream * streams.streamLength + w * seqLen;
            for (int t = 0; t < seqLen; ++t) {
                window.inputs[size_t(t) * window.rows + b] = t < steps ? m.ids[size_t(from + t)] : 0;
                window.targets[size_t(t) * window.rows + b] = t < steps ? m.ids[size_t(from + t + 1)] : 0;
            }
        }
    }
    return targets;
}

double CharTrainer::Impl::EpochReader::gradients(int64_t targets)
{
    const float lossScale = float(1.0 / double(targets));
    parallelFor(
        int(shares.size()),
        [&](int part) {
            StreamShare &share = shares[size_t(part)];
            share.loss = 0;
            if (share.window.steps == 0)
                return;
            share.loss = share.stack->forward(parameters, share.window, true);
            if (std::isfinite(share.loss))
                share.stack->backward(parameters, share.window, lossScale, shareGradients[size_t(part)]);
        },
        Workers::PooledSingleThreadedOps);
    double loss = 0;
    for (const StreamShare &share : shares)
        loss += share.loss;
    if (!std::isfinite(loss))
        return loss;
    // The first share's streams are the longest: it always has a window to read, and its gradients
    // are written straight into the parameters'. The others' are added to them, and the norm taken,
    // each thread taking a run of the values.
    float *sum = m.gradients.data_ptr<float>();
    const int64_t count = m.values.numel();
    const int parts = partsFor(count, kValuesPerWorker, m.threads);
    std::vector<double> squares(static_cast<size_t>(parts));
    parallelFor(
        parts,
        [&](int part) {
            const auto [begin, end] = partRange(count, part, parts);
            for (size_t other = 1; other < shares.size(); ++other)
                if (shares[other].window.steps > 0)
                    addInPlace(sum + begin, shares[other].gradients.data() + begin, end - begin);
            squares[size_t(part)] = sumOfSquares(sum + begin, end - begin);
        },
        Workers::Pooled);
    gradientNorm = std::sqrt(std::accumulate(squares.begin(), squares.end(), 0.0));
    return loss;
}

CharTrainer::CharTrainer(const CharText &text, const CharModelConfig &model, const CharTrainingConfig &training)
    : m_impl(std::make_unique<Impl>(text, model, training))
{
    // As torch initialises Embedding, RNN/GRU/LSTM and Linear, in the order the reference script
    // builds them, from one generator seeded with the seed.
    torch::NoGradGuard noGrad;
    auto generator = at::detail::createCPUGenerator(training.seed);
    const double recurrentBound = 1.0 / std::sqrt(double(model.hidden));
    // Linear's weight: kaiming_uniform_ with a = sqrt(5), which comes to 1 / sqrt(fan_in).
    const double outputWeightBound =
        std::sqrt(3.0) * std::sqrt(2.0 / (1 + std::pow(std::sqrt(5.0), 2))) / std::sqrt(double(model.hidden));
    const auto &p = m_impl->parameters;
    size_t next = 0;
    if (model.embed > 0)
        p[next++].normal_(0.0, 1.0, generator);
    for (int i = 0; i < 4 * model.layers; ++i)
        p[next++].uniform_(-recurrentBound, recurrentBound, generator);
    p[next++].uniform_(-outputWeightBound, outputWeightBound, generator);
    p[next++].uniform_(-1.0 / std::sqrt(double(model.hidden)), 1.0 / std::sqrt(double(model.hidden)), generator);
}

CharTrainer::CharTrainer(const CharText &text, const CharWeights &start, const CharTrainingConfig &training)
    : m_impl(std::make_unique<Impl>(text, start.config, training))
{
    const std::string problem = start.checkSizes();
    if (!problem.empty())
        throw std::invalid_argument(problem);
    if (start.alphabet != text.alphabet)
        throw std::invalid_argument("The model was trained on another alphabet than this text's: its characters "
                                    "differ, so it cannot go on training on it.");
    CharWeights copy = start;
    float *flat = m_impl->values.data_ptr<float>();
    for (const std::vector<float> *v : parameterVectors(copy))
        flat = std::copy(v->begin(), v->end(), flat);
    // The cells clamp their inputs, which would hide a weight that is not a number rather than fail.
    if (!torch::isfinite(m_impl->values).all().item<bool>())
        throw std::invalid_argument("The model's weights are not all finite numbers: it comes from a run that "
                                    "diverged or a damaged file, and cannot be trained on.");
}

CharTrainer::~CharTrainer() = default;

CharWeights CharTrainer::weights() const
{
    CharWeights w;
    w.config = m_impl->model;
    w.alphabet = m_impl->alphabet;
    const auto shapes = charParameterShapes(w.config, w.alphabetSize());
    w.layers.resize(size_t(w.config.layers));
    const float *flat = m_impl->values.data_ptr<float>();
    const auto vectors = parameterVectors(w);
    for (size_t i = 0; i < vectors.size(); ++i) {
        const int64_t size = elements(shapes[i]);
        vectors[i]->assign(flat, flat + size);
        flat += size;
    }
    return w;
}

double CharTrainer::bitsPerChar(int64_t begin, int64_t end) const
{
    return m_impl->bitsPerChar(begin, end);
}

std::vector<CharEpoch> CharTrainer::train(const Callbacks &callbacks, const std::atomic<bool> *stop)
{
    Impl &m = *m_impl;
    // Threads share out the streams; every op runs on one thread.
    const runtime::IntraOpThreads oneThreadPerOp(1);
    Impl::EpochReader reader(m);
    std::vector<CharEpoch> done;
    const int firstEpoch = m.epochsDone + 1, lastEpoch = m.epochsDone + m.training.epochs;
    double runSeconds = 0;
    int64_t runTargets = 0;
    for (int epoch = firstEpoch; epoch <= lastEpoch; ++epoch) {
        reader.startEpoch();
        double epochLoss = 0, epochSeconds = 0;
        for (int64_t w = 0; w < reader.streams.windowsPerEpoch; ++w) {
            const auto start = Clock::now();
            const int64_t targets = reader.readWindow(w);
            const double loss = reader.gradients(targets);
            if (!std::isfinite(loss) || !std::isfinite(reader.gradientNorm))
                m.diverged(epoch, w + 1, reader.streams.windowsPerEpoch);
            // Clipping folded into the optimiser's step.
            const double scale = clipFactor(reader.gradientNorm, reader.clip);
            m.optimizer->step(scale);
            ++m.iteration;
            const double seconds = secondsSince(start);
            epochLoss += loss;
            epochSeconds += seconds;
            runSeconds += seconds;
            runTargets += targets;
            if (callbacks.onWindow)
                callbacks.onWindow({epoch, lastEpoch, w + 1, reader.streams.windowsPerEpoch, m.iteration,
                                    loss / double(targets) / kLn2, double(runTargets) / runSeconds});
            if (stop && stop->load(std::memory_order_relaxed))
                return done;
        }
        CharEpoch result;
        result.epoch = epoch;
        result.trainBitsPerChar = epochLoss / double(reader.streams.targetsPerEpoch) / kLn2;
        result.validationBitsPerChar = int64_t(m.ids.size()) - m.trainLength >= 2
                                           ? m.bitsPerChar(m.trainLength, int64_t(m.ids.size()))
                                           : std::numeric_limits<double>::quiet_NaN();
        result.seconds = epochSeconds;
        result.charsPerSecond = double(reader.streams.targetsPerEpoch) / epochSeconds;
        result.iteration = m.iteration;
        m.epochsDone = epoch;
        done.push_back(result);
        if (callbacks.onEpoch)
            callbacks.onEpoch(result);
    }
    return done;
}
