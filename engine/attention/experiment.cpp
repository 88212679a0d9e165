#include "engine/attention/experiment.h"

#include "engine/attention/seq2seqmodel.h"
#include "engine/core/corpusdefaults.h"
#include "engine/core/elapsed.h"

#include <chrono>

std::vector<ExperimentRun> experimentRuns(const std::vector<ModelConfig> &configs, std::uint64_t seed, int repeats)
{
    std::vector<ExperimentRun> runs;
    for (std::size_t i = 0; i < configs.size(); ++i)
        for (int k = 0; k < repeats; ++k)
            runs.push_back({configs[i], seed + std::uint64_t(k), int(i), k});
    return runs;
}

ExperimentResult runExperiment(const std::string &label, const Dataset &data, const DatasetConfig &dataset,
                               const ModelConfig &model, std::uint64_t modelSeed, TrainingConfig training,
                               const std::vector<SentencePair> &probe, const Trainer::Callbacks &callbacks,
                               const std::atomic<bool> *stop)
{
    const auto start = std::chrono::steady_clock::now();
    auto trained = std::make_shared<Seq2SeqModel>(Seq2SeqModel::forDataset(model, data, dataset, modelSeed));
    ExperimentResult r;
    r.label = label;
    r.model = model;
    r.modelSeed = modelSeed;
    r.parameters = trained->parameterCount();
    r.outcome = Trainer(*trained, data, training).run(callbacks, stop);
    r.history = trained->history;
    if (r.outcome.bestEpoch > 0) {
        // Batched decoding gives what one sentence at a time gives, in a fraction of the time.
        r.test = evaluate(*trained, data.test, DecodeMode::Batched);
        r.probe = evaluate(*trained, probe, DecodeMode::Batched);
        r.best = trained;
    }
    r.seconds = secondsSince(start);
    return r;
}
