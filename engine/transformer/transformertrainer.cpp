#include "engine/transformer/transformertrainer.h"

#include "engine/core/adam.h"
#include "engine/core/batch.h"
#include "engine/core/elapsed.h"
#include "engine/core/evalmodescope.h"
#include "engine/core/gradientclipping.h"
#include "engine/core/maskedloss.h"
#include "engine/core/parametersnapshot.h"
#include "engine/core/runtime.h"
#include "engine/core/trainingfields.h"
#include "engine/transformer/transformermodel.h"
#include "engine/transformer/transformernet.h"

#include <chrono>
#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>

namespace {

using Clock = std::chrono::steady_clock;

// Teacher forcing: the decoder reads <SOS> and the words, and is scored on the words and <EOS>.
torch::Tensor teacherForcedLoss(TransformerNetImpl &net, const Batch &batch)
{
    const int64_t steps = batch.target.size(1) - 1;
    const torch::Tensor logits = net.forward(batch.source, batch.sourceMask, batch.target.narrow(1, 0, steps));
    return maskedCrossEntropy(logits, batch.target.narrow(1, 1, steps));
}

double validationLoss(TransformerNetImpl &net, const std::vector<Batch> &batches)
{
    torch::NoGradGuard noGrad;
    const EvalModeScope evalMode(net);
    double sum = 0;
    int sentences = 0;
    for (const Batch &batch : batches) {
        sum += teacherForcedLoss(net, batch).item<double>() * batch.size();
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
    const runtime::IntraOpThreads threads(resolvedThreads(m_config.threads));
    torch::manual_seed(m_config.seed);  // the dropout masks
    std::mt19937_64 rng(m_config.seed);
    TransformerNetImpl &net = m_model.net();
    const Vocabulary &vocabulary = m_model.vocabulary();
    std::vector<Batch> valBatches;
    for (const std::vector<int> &indices : batchOrder(sourceLengths(m_data.val), m_config.batchSize, nullptr))
        valBatches.push_back(makeBatch(pairsAt(m_data.val, indices), vocabulary));
    const std::vector<int> trainLengths = sourceLengths(m_data.train);
    Adam adam(net.parameters(), Adam::Options{m_config.learningRate, 0.9, 0.98, 1e-9, 0.0, 1});

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
        const auto start = Clock::now();
        double lossSum = 0, normSum = 0, learningRate = 0;
        int samples = 0;
        for (std::size_t b = 0; b < batches.size(); ++b) {
            if (stop && stop->load(std::memory_order_relaxed)) {
                run.stopped = true;
                finish();
                return run;
            }
            const Batch batch = makeBatch(pairsAt(m_data.train, batches[b]), vocabulary);
            adam.zeroGrad();
            learningRate = learningRateAt(m_config, step++);
            adam.setLearningRate(learningRate);
            const torch::Tensor loss = teacherForcedLoss(net, batch);
            loss.backward();
            const double lossValue = loss.item<double>();
            const double norm = m_config.clipNorm > 0 ? clipGradientNorm(net.parameters(), m_config.clipNorm) : 0.0;
            if (!std::isfinite(lossValue) || !std::isfinite(norm)) {
                finish();
                throw std::runtime_error("training diverged in epoch " + std::to_string(epoch) +
                                         " (the loss or its gradient is not finite); try a lower learning rate. "
                                         "The best model so far is kept.");
            }
            adam.step();
            normSum += norm;
            lossSum += lossValue * batch.size();
            samples += batch.size();
            if (callbacks.onBatch)
                callbacks.onBatch({epoch, int(b) + 1, int(batches.size()), lossValue, samples / secondsSince(start)});
        }
        EpochStats stats;
        stats.epoch = epoch;
        stats.seconds = secondsSince(start);
        stats.trainLoss = lossSum / samples;
        stats.samplesPerSecond = samples / stats.seconds;
        stats.learningRate = learningRate;
        stats.gradientNorm = normSum / double(batches.size());
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
