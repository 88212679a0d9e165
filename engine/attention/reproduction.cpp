#include "engine/attention/reproduction.h"

#include "engine/attention/projectfile.h"
#include "engine/attention/seq2seqmodel.h"
#include "engine/attention/seq2seqnet.h"
#include "engine/core/corpusdefaults.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace {

double largestDifference(const std::vector<EpochStats> &a, const std::vector<EpochStats> &b)
{
    double largest = 0;
    for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i)
        for (auto member : {&EpochStats::trainLoss, &EpochStats::valLoss, &EpochStats::valExactMatch})
            largest = std::max(largest, std::fabs(a[i].*member - b[i].*member));
    return largest;
}

double largestDifference(const Seq2SeqModel &a, const Seq2SeqModel &b)
{
    if (a.vocabulary().words() != b.vocabulary().words())
        return std::numeric_limits<double>::infinity();
    torch::NoGradGuard noGrad;
    const auto named = a.net()->named_parameters(/*recurse=*/true);
    const auto other = b.net()->named_parameters(/*recurse=*/true);
    double largest = 0;
    for (const auto &item : named) {
        const torch::Tensor *theirs = other.find(item.key());
        if (!theirs || !theirs->sizes().equals(item.value().sizes()))
            return std::numeric_limits<double>::infinity();
        largest = std::max(largest, (item.value() - *theirs).abs().max().item<double>());
    }
    return largest;
}

bool sameHistory(const std::vector<EpochStats> &a, const std::vector<EpochStats> &b)
{
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const EpochStats &x, const EpochStats &y) {
        return x.epoch == y.epoch && x.trainLoss == y.trainLoss && x.valLoss == y.valLoss
               && x.valExactMatch == y.valExactMatch;
    });
}

}

Dataset projectDataset(const AttentionProject &project)
{
    if (project.corpus.embedded)
        return parseCorpus(project.dataset, project.corpus.text, "the project's embedded corpus");
    if (!project.dataset.corpusPath.empty()) {
        const std::string problem = projectfile::corpusFileProblem(project);
        if (!problem.empty())
            throw DatasetError(problem + ", and the project does not embed its text");
    }
    return Dataset::build(project.dataset);
}

Reproduction reproduce(const AttentionProject &project, int threads, const Trainer::Callbacks &callbacks,
                       const std::atomic<bool> *stop)
{
    const Dataset data = projectDataset(project);
    const DatasetConfig &d = project.dataset;
    Seq2SeqModel model = Seq2SeqModel::forDataset(project.model, data, d, project.training.seed);
    TrainingConfig training = project.training;
    training.threads = threads;
    training.checkpointPath.clear();
    // A run stopped by hand kept fewer epochs than it was set to; no epoch depends on the total.
    if (!project.best->history.empty())
        training.epochs = std::min(training.epochs, int(project.best->history.size()));
    Trainer trainer(model, data, training);

    Reproduction r;
    r.outcome = trainer.run(callbacks, stop);
    const std::vector<EpochStats> &stored = project.best->history;
    r.epochsStored = int(stored.size());
    r.epochsRun = int(model.history.size());
    r.largestHistoryDifference = largestDifference(stored, model.history);
    r.largestWeightDifference = largestDifference(model, *project.best);
    r.identical = sameHistory(stored, model.history) && r.largestWeightDifference == 0;
    return r;
}
