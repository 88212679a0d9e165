#include "app/attention/commands.h"

#include "app/core/commandline.h"
#include "engine/attention/projectfile.h"
#include "engine/attention/reproduction.h"
#include "engine/attention/seq2seqmodel.h"

#include <cstdio>
#include <iostream>
#include <stdexcept>

// attnscope reproduce: train a project's run again and say how close it comes.
namespace {

// Runs on another number of threads split each batch differently, so their gradients are summed
// in another order: differences of rounding, far below this (docs/command-line.md, "reproduce").
constexpr double kLossTolerance = 1e-3;

void printEpoch(const EpochStats &run, const EpochStats *stored)
{
    if (stored)
        std::printf("epoch %3d | train loss %.6f (stored %.6f) | val loss %.6f (stored %.6f)\n", run.epoch,
                    run.trainLoss, stored->trainLoss, run.valLoss, stored->valLoss);
    else
        std::printf("epoch %3d | train loss %.6f | val loss %.6f (the project has no such epoch)\n", run.epoch,
                    run.trainLoss, run.valLoss);
    std::fflush(stdout);
}

}

int runReproduce(const std::vector<std::string> &arguments)
{
    CommandLine cl(arguments, {"threads"}, {});
    const int threadsGiven = cl.integer("threads", 0, 1, 1024);
    if (cl.positional().size() != 1)
        cl.fail("give exactly one project file: attnscope reproduce [--threads N] FILE.attnscope");
    if (!cl.ok())
        return usageError("reproduce", cl.error());
    const std::string path = cl.positional().front();

    AttentionProject project;
    try {
        project = projectfile::load(path);
    } catch (const ProjectError &e) {
        std::cerr << "attnscope reproduce: " << e.what() << "\n";
        return 2;
    }
    const int threads = cl.has("threads") ? threadsGiven : project.threadsUsed;
    const std::vector<EpochStats> &stored = project.best->history;
    std::printf("%s: %zu epochs on %d thread(s), seed %llu; training again on %d thread(s)\n", path.c_str(),
                stored.size(), project.threadsUsed, static_cast<unsigned long long>(project.training.seed), threads);
    if (threads != project.threadsUsed && project.model.dropout > 0)
        std::printf("note: the run used %d thread(s). Each thread takes its share of a batch's rows and draws "
                    "dropout masks for them, so another count draws other masks: expect another run, not identity.\n",
                    project.threadsUsed);
    else if (threads != project.threadsUsed)
        std::printf("note: the run used %d thread(s). Each thread takes its share of a batch's rows, so another "
                    "count sums the gradients in another order: expect small differences, not identity.\n",
                    project.threadsUsed);
    if (project.corpus.embedded) {
        const std::string problem = projectfile::corpusFileProblem(project);
        std::printf("corpus: the text embedded in the project%s\n",
                    problem.empty() ? "" : (" (" + problem + ")").c_str());
    }
    std::fflush(stdout);

    Trainer::Callbacks callbacks;
    callbacks.onEpoch = [&stored](const EpochStats &e, bool) {
        const std::size_t i = std::size_t(e.epoch - 1);
        printEpoch(e, i < stored.size() ? &stored[i] : nullptr);
    };
    Reproduction r;
    try {
        r = reproduce(project, threads, callbacks);
    } catch (const DatasetError &e) {
        return failure(e.what());
    } catch (const std::invalid_argument &e) {
        return failure(e.what());
    }

    if (r.identical) {
        std::printf("\nReproduced bit for bit: the %d epochs' losses and exact match and every weight of the best "
                    "model are identical.\n",
                    r.epochsRun);
        return 0;
    }
    std::printf("\nNot bit for bit: largest difference %.3g in the epochs' losses and exact match, %.3g in the best "
                "model's weights",
                r.largestHistoryDifference, r.largestWeightDifference);
    if (r.epochsRun != r.epochsStored)
        std::printf("; %d epochs ran, the project has %d", r.epochsRun, r.epochsStored);
    std::printf(".\n");
    const bool close = r.epochsRun == r.epochsStored && r.largestHistoryDifference <= kLossTolerance;
    std::printf("%s (tolerance %.0e on losses and exact match%s).\n",
                close ? "Reproduced within tolerance" : "Does not reproduce", kLossTolerance,
                threads == project.threadsUsed ? "; at the run's own thread count identity was expected" : "");
    return close ? 0 : 1;
}
