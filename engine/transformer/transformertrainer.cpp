#include "engine/transformer/transformertrainer.h"

#include "engine/core/adam.h"
#include "engine/core/batch.h"
#include "engine/core/dropoutstream.h"
#include "engine/core/elapsed.h"
#include "engine/core/epochtally.h"
#include "engine/core/evalmodescope.h"
#include "engine/core/gradientclipping.h"
#include "engine/core/maskedloss.h"
#include "engine/core/parametersnapshot.h"
#include "engine/core/runtime.h"
#include "engine/core/trainingfields.h"
#include "engine/fast/parallelfor.h"
#include "engine/transformer/transformermodel.h"
#include "engine/transformer/transformernet.h"

#include <chrono>
#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>

namespace {

// Below this many rows per shard, splitting a batch costs more than a second thread gains.
constexpr int64_t kMinShardRows = 16;

// Teacher forcing on rows [begin, end): the decoder reads <SOS> and the words, and is scored on
// the words and <EOS>. The mean over the rows' real target tokens.
torch::Tensor teacherForcedLoss(TransformerNetImpl &net, const Batch &batch, int64_t begin, int64_t end)
{
    const int64_t steps = batch.target.size(1) - 1;
    const torch::Tensor target = batch.target.slice(0, begin, end);
    const torch::Tensor logits = net.forward(batch.source.slice(0, begin, end), batch.sourceMask.slice(0, begin, end),
                                             target.narrow(1, 0, steps));
    return maskedCrossEntropy(logits, target.narrow(1, 1, steps));
}

int64_t targetTokens(const Batch &batch, int64_t begin, int64_t end)
{
    return (batch.target.slice(0, begin, end).slice(1, 1) != Vocabulary::kPad).sum().item<int64_t>();
}

// Forward and backward over shards of the batch's rows on `workers` threads, each loss weighted
// by its share of the target tokens, so the gradients add up to the whole batch's: each weight
// takes one sum per shard, which two shards make in either order alike. Shards draw their dropout
// masks from streams keyed by the seed, the step and their first row, so runs repeat exactly.
// Returns the batch's mean token loss.
double forwardBackward(TransformerNetImpl &net, const Batch &batch, int workers, std::uint64_t seed, long step)
{
    const double tokens = double(targetTokens(batch, 0, batch.size()));
    double loss = 0;
    for (double part : overShards(batch.size(), kMinShardRows, workers, [&](int64_t begin, int64_t end) {
             const DropoutStream masks(seed, std::uint64_t(step), std::uint64_t(begin));
             const double share = double(targetTokens(batch, begin, end)) / tokens;
             const torch::Tensor shardLoss = teacherForcedLoss(net, batch, begin, end) * share;
             shardLoss.backward();
             return shardLoss.item<double>();
         }))
        loss += part;
    return loss;
}

double validationLoss(TransformerNetImpl &net, const std::vector<Batch> &batches)
{
    torch::NoGradGuard noGrad;
    const EvalModeScope evalMode(net);
    double sum = 0;
    int sentences = 0;
    for (const Batch &batch : batches) {
        sum += teacherForcedLoss(net, batch, 0, batch.size()).item<double>() * batch.size();
        sentences += batch.size();
    }
    return sentences > 0 ? sum / sentences : 0.0;
}

}  // namespace

TransformerTrainer::TransformerTrainer(TransformerModel &model, const Dataset &data,
                                       const TransformerTrainingConfig &config)
    : m_model(model), m_data(data), m_config(config)
{
    const std::string problem = validate(config);
    if (!problem.empty())
        throw std::invalid_argument("invalid training settings: " + problem);
    if (data.train.empty() || data.val.empty())
        throw std::invalid_argument("training needs at least one training and one validation sentence");
}

TransformerRun TransformerTrainer::run(const Callbacks &callbacks, const std::atomic<bool> *stop)
{
    const int workers = resolvedThreads(m_config.threads);
    // Shards of each batch run side by side, each on one intra-op thread (overShards).
    const runtime::IntraOpThreads oneThreadPerOp(1);
    std::mt19937_64 rng(m_config.seed);
    TransformerNetImpl &net = m_model.net();
    const Vocabulary &vocabulary = m_model.vocabulary();
    std::vector<Batch> valBatches;
    for (const std::vector<int> &indices : batchOrder(sourceLengths(m_data.val), m_config.batchSize, nullptr))
        valBatches.push_back(makeBatch(pairsAt(m_data.val, indices), vocabulary));
    const std::vector<int> trainLengths = sourceLengths(m_data.train);
    Adam adam(net.parameters(), Adam::Options{m_config.learningRate, 0.9, 0.98, 1e-9, 0.0, workers});

    TransformerRun run;
    double bestLoss = std::numeric_limits<double>::infinity();
    std::vector<torch::Tensor> bestWeights;
    const auto finish = [&] {
        if (!bestWeights.empty())
            restoreParameters(net, bestWeights);
        net.eval();
    };
    long step = 0;
    const int firstEpoch = int(m_model.history.size()) + 1;
    for (int epoch = firstEpoch; epoch < firstEpoch + m_config.epochs; ++epoch) {
        net.train();
        const std::vector<std::vector<int>> batches = batchOrder(trainLengths, m_config.batchSize, &rng);
        EpochTally tally(epoch, int(batches.size()));
        for (std::size_t b = 0; b < batches.size(); ++b) {
            if (stop && stop->load(std::memory_order_relaxed)) {
                run.stopped = true;
                finish();
                return run;
            }
            const Batch batch = makeBatch(pairsAt(m_data.train, batches[b]), vocabulary);
            adam.zeroGrad();
            const double learningRate =
                learningRateAt(m_config, step, double(epoch - firstEpoch) + double(tally.samples()) / double(trainLengths.size()));
            tally.setLearningRate(learningRate);
            adam.setLearningRate(learningRate);
            const double lossValue = forwardBackward(net, batch, workers, m_config.seed, step);
            const double norm = m_config.clipNorm > 0 ? clipGradientNorm(net.parameters(), m_config.clipNorm) : 0.0;
            if (!std::isfinite(lossValue) || !std::isfinite(norm)) {
                finish();
                throw std::runtime_error("training diverged in epoch " + std::to_string(epoch) +
                                         " (the loss or its gradient is not finite); try a lower learning rate. "
                                         "The best model so far is kept.");
            }
            adam.step();
            ++step;
            const BatchProgress progress = tally.add(int(b) + 1, batch.size(), lossValue, norm);
            if (callbacks.onBatch)
                callbacks.onBatch(progress);
        }
        EpochStats stats = tally.stats();
        stats.valLoss = validationLoss(net, valBatches);
        stats.valExactMatch = m_model.score(m_data.val).exactMatch();
        m_model.history.push_back(stats);
        run.epochsDone += 1;
        const bool best = stats.valLoss < bestLoss;
        if (best) {
            bestLoss = stats.valLoss;
            bestWeights = copyParameters(net);
            run.bestEpoch = epoch;
        }
        if (callbacks.onEpoch)
            callbacks.onEpoch(stats, best);
    }
    finish();
    return run;
}
