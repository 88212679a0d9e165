#include "engine/attention/trainer.h"

#include "engine/attention/outputlayerpasses.h"
#include "engine/attention/seq2seqmodel.h"
#include "engine/attention/seq2seqnet.h"
#include "engine/attention/trainingconfig.h"
#include "engine/core/adam.h"
#include "engine/core/batch.h"
#include "engine/core/corpusdefaults.h"
#include "engine/core/dropoutstream.h"
#include "engine/core/elapsed.h"
#include "engine/core/epochtally.h"
#include "engine/core/gradientclipping.h"
#include "engine/core/learningrateschedule.h"
#include "engine/core/parametersnapshot.h"
#include "engine/core/runtime.h"
#include "engine/core/sgd.h"
#include "engine/fast/helperthread.h"
#include "engine/fast/parallelfor.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <random>

namespace {

// The batch doubles from batchStart every epoch until it reaches batchSize: many small steps while
// the model is far off, then the larger batches that train faster per sample.
int batchSizeIn(const TrainingConfig &config, int epochsDone)
{
    if (config.batchStart <= 0)
        return config.batchSize;
    long batch = config.batchStart;
    for (int e = 0; e < epochsDone && batch < config.batchSize; ++e)
        batch *= 2;
    return int(std::min<long>(batch, config.batchSize));
}

// Below this many rows per shard, splitting a batch costs more than a second thread gains.
constexpr int64_t kMinShardRows = 16;

// The targets of rows [begin, end) of `batch`, from step 1 on.
outputlayerpasses::StepTargets stepTargets(const Batch &batch, int64_t begin, int64_t end)
{
    return {batch.target.slice(0, begin, end).slice(1, 1),
            batch.targetExtended.defined() ? batch.targetExtended.slice(0, begin, end).slice(1, 1) : torch::Tensor(),
            batch.sourceExtended.slice(0, begin, end)};
}

// Forward and backward pass of one batch over shards of its rows. Every shard follows the same
// teacher-forcing decisions and its loss is weighted by its share of the batch's target tokens,
// so the gradients add up to those of the whole batch. Shards that run at once draw their dropout
// masks from streams of their own, keyed by the run's seed, the step (epoch and batch, so that a
// resumed run does not repeat the masks of its first epochs) and their first row, so a run on
// several threads repeats exactly; a batch in one shard draws from LibTorch's generator, seeded by
// run(), as runs before the streams did, whose projects still reproduce. Returns the batch's mean
// token loss.
double forwardBackward(Seq2SeqNet &net, const Batch &batch, const std::function<bool()> &teacherForce, int workers,
                       std::uint64_t seed, std::uint64_t step)
{
    const torch::Tensor target = batch.target.slice(1, 1);
    std::vector<bool> coins;
    for (int64_t t = 1; t < target.size(1); ++t)
        coins.push_back(teacherForce());
    const double tokens = double((target != Vocabulary::kPad).sum().item<int64_t>());
    double loss = 0;
    for (double part : overShards(batch.size(), kMinShardRows, workers, [&](int64_t begin, int64_t end) {
             std::optional<DropoutStream> masks;
             if (end - begin < batch.size())
                 masks.emplace(seed, step, std::uint64_t(begin));
             std::size_t coin = 0;
             const FusedDecoderWeights w = net->decoder->fusedWeights();
             const DecoderStates states =
                 net->decoderStates(w, batch.source.slice(0, begin, end), batch.sourceLengths.slice(0, begin, end),
                                    batch.target.slice(0, begin, end), [&] { return bool(coins[coin++]); },
                                    batch.sourceExtended.slice(0, begin, end));
             return outputlayerpasses::backwardTokenLoss(net, w, states, stepTargets(batch, begin, end), tokens);
         }))
        loss += part;
    return loss;
}

struct Validation {
    double loss = 0;
    double exactMatch = 0;
};

// Free-running pass (the decoder is fed its own predictions): its loss, and exact match from the
// same predictions, which are exactly what greedy decoding would produce. Shards of each batch
// run on `workers` threads, as in training.
Validation validate(Seq2SeqNet &net, const std::vector<Batch> &batches, int workers)
{
    net->eval();
    outputlayerpasses::FreeRunningScore total;
    for (const Batch &b : batches)
        for (const auto &part : overShards(b.size(), kMinShardRows, workers, [&](int64_t begin, int64_t end) {
                 torch::NoGradGuard noGrad;  // per thread
                 const FusedDecoderWeights w = net->decoder->fusedWeights();
                 const DecoderStates states =
                     net->decoderStates(w, b.source.slice(0, begin, end), b.sourceLengths.slice(0, begin, end),
                                        b.target.slice(0, begin, end), [] { return false; },
                                        b.sourceExtended.slice(0, begin, end));
                 return outputlayerpasses::scoreFreeRunning(net, w, states, stepTargets(b, begin, end));
             })) {
            total.lossSum += part.lossSum;
            total.tokens += part.tokens;
            total.exactRows += part.exactRows;
        }
    int64_t sentences = 0;
    for (const Batch &b : batches)
        sentences += b.size();
    return {total.tokens ? total.lossSum / double(total.tokens) : 0.0,
            sentences ? double(total.exactRows) / double(sentences) : 0.0};
}

}

Trainer::Trainer(Seq2SeqModel &model, const Dataset &data, const TrainingConfig &config)
    : m_model(model)
    , m_data(data)
    , m_config(config)
{
    const std::string problem = validate(config);
    if (!problem.empty())
        throw std::invalid_argument("invalid training settings: " + problem);
    if (data.train.empty() || data.val.empty())
        throw std::invalid_argument("training needs at least one training and one validation sentence");
}

TrainingOutcome Trainer::run(const Callbacks &callbacks, const std::atomic<bool> *stop)
{
    const int threads = trainingThreads(m_config);
    // Threads share out each batch's rows (forwardBackward); every op runs on one thread (Adam's
    // updates were slower on two intra-op threads).
    const runtime::IntraOpThreads oneThreadPerOp(1);
    const HelperThread::Standby standby;
    torch::manual_seed(m_config.seed);  // dropout masks of batches that run in one shard
    std::mt19937_64 rng(m_config.seed);
    std::bernoulli_distribution teacherCoin(m_config.teacherForcing);
    auto teacherForce = [&] { return teacherCoin(rng); };

    Seq2SeqNet &net = m_model.net();
    const Vocabulary &vocabulary = m_model.vocabulary();
    std::vector<Batch> valBatches;
    for (const auto &indices : batchOrder(sourceLengths(m_data.val), m_config.batchSize, nullptr))
        valBatches.push_back(makeBatch(pairsAt(m_data.val, indices), vocabulary));
    const std::vector<int> trainLengths = sourceLengths(m_data.train);
    // A uniform guess scores ln(V); a loss ten times that means the weights have blown up, even
    // when Adam's bounded steps keep it finite.
    const double explodedLoss = 10.0 * std::log(double(vocabulary.size()));

    std::unique_ptr<Optimizer> updates;
    if (m_config.optimizer == OptimizerKind::Sgd)
        updates = std::make_unique<Sgd>(net->parameters(), Sgd::Options{m_config.learningRate, m_config.momentum,
                                                                        m_config.weightDecay});
    else
        updates = std::make_unique<Adam>(net->parameters(), Adam::Options{m_config.learningRate, 0.9, 0.999, 1e-8,
                                                                          m_config.weightDecay, threads});
    Optimizer &optimizer = *updates;
    LearningRateSchedule schedule(m_config.learningRate, m_config.warmupSteps,
                                  effectiveEpochDecay(m_config, m_data.fromCorpus));
    long step = 0;
    TrainingOutcome outcome;
    outcome.bestValLoss = std::numeric_limits<double>::infinity();
    std::vector<torch::Tensor> bestWeights;
    int epochsWithoutImprovement = 0;
    const int firstEpoch = int(m_model.history.size()) + 1;
    auto stopped = [&] { return stop && stop->load(std::memory_order_relaxed); };
    auto finish = [&](TrainingOutcome::Status status, std::string message) {
        if (!bestWeights.empty())
            restoreParameters(*net, bestWeights);
        net->eval();
        outcome.status = status;
        outcome.message = std::move(message);
        return outcome;
    };

    for (int epoch = firstEpoch; epoch < firstEpoch + m_config.epochs; ++epoch) {
        net->train();
        const auto batches = batchOrder(trainLengths, batchSizeIn(m_config, epoch - firstEpoch), &rng);
        EpochTally tally(epoch, int(batches.size()));
        for (std::size_t b = 0; b < batches.size(); ++b) {
            if (stopped())
                return finish(TrainingOutcome::Status::Stopped, "Stopped during epoch " + std::to_string(epoch) + ".");
            const Batch batch = makeBatch(pairsAt(m_data.train, batches[b]), vocabulary, m_config.unknownWordRate, &rng);
            optimizer.zeroGrad();
            const double epochsDone = double(epoch - firstEpoch) + double(tally.samples()) / double(trainLengths.size());
            const double learningRate = schedule.at(step++, epochsDone);
            tally.setLearningRate(learningRate);
            optimizer.setLearningRate(learningRate);
            const double lossValue = forwardBackward(net, batch, teacherForce, threads, m_config.seed,
                                                     std::uint64_t(epoch) << 32 | std::uint64_t(b));
            if (!std::isfinite(lossValue) || lossValue > explodedLoss)
                return finish(TrainingOutcome::Status::Diverged,
                              "Training diverged in epoch " + std::to_string(epoch) + " (batch loss " + std::to_string(lossValue)
                                  + ", over ten times that of a uniform guess); try a lower learning rate. "
                                  "The best model so far is kept.");
            const double norm = m_config.clipNorm > 0 ? clipGradientNorm(net->parameters(), m_config.clipNorm) : 0.0;
            if (!std::isfinite(norm))
                return finish(TrainingOutcome::Status::Diverged,
                              "Training diverged in epoch " + std::to_string(epoch) + " (gradient is not finite); "
                              "try a lower learning rate. The best model so far is kept.");
            optimizer.step();
            const BatchProgress progress = tally.add(int(b) + 1, batch.size(), lossValue, norm);
            if (callbacks.onBatch)
                callbacks.onBatch(progress);
        }
        EpochStats stats = tally.stats();
        const Validation v = validate(net, valBatches, threads);
        stats.valLoss = v.loss;
        stats.valExactMatch = v.exactMatch;
        m_model.history.push_back(stats);

        const bool best = stats.valLoss < outcome.bestValLoss;
        if (best) {
            outcome.bestValLoss = stats.valLoss;
            outcome.bestEpoch = epoch;
            bestWeights = copyParameters(*net);
            epochsWithoutImprovement = 0;
            if (!m_config.checkpointPath.empty())
                m_model.save(m_config.checkpointPath);
        } else {
            // Late epochs bounce around the optimum; a smaller step settles them.
            ++epochsWithoutImprovement;
            schedule.scale(m_config.learningRateDecay);
        }
        if (callbacks.onEpoch)
            callbacks.onEpoch(stats, best);
        if (m_config.patience > 0 && epochsWithoutImprovement >= m_config.patience)
            return finish(TrainingOutcome::Status::EarlyStopped,
                          "Stopped early: no better validation loss for " + std::to_string(m_config.patience)
                              + " epochs; best epoch " + std::to_string(outcome.bestEpoch) + ".");
    }
    return finish(TrainingOutcome::Status::Finished,
                  "Finished; best epoch " + std::to_string(outcome.bestEpoch) + ".");
}
