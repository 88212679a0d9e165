// `attnscope compare --architecture transformer`: Transformer variants trained on the same data and
// seed, side by side inside and beyond the trained lengths.
#include "app/transformer/transformercommands.h"

#include "app/core/commandline.h"
#include "app/core/benchfigures.h"
#include "app/core/comparedata.h"
#include "app/core/epochline.h"
#include "app/core/interruptscope.h"
#include "app/core/runfolder.h"
#include "app/core/runjson.h"
#include "app/transformer/transformerreport.h"
#include "app/transformer/transformerrun.h"
#include "app/transformer/transformerrunfiles.h"
#include "app/transformer/transformerrunoptions.h"
#include "engine/core/corpusdefaults.h"
#include "engine/core/dataset.h"
#include "engine/core/elapsed.h"
#include "engine/core/median.h"
#include "engine/core/seedspread.h"
#include "engine/transformer/transformercheckpoint.h"
#include "ui/core/configmap.h"
#include "ui/core/lengthaccuracyplot.h"
#include "ui/core/plotexport.h"

#include <QJsonDocument>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <sstream>

namespace {

// One variant's run: how it trained and how it scores.
struct ComparedRun {
    std::string label;  // "learned", or "learned-seed43" with --seeds
    TransformerConfig model;
    std::uint64_t modelSeed = 0;
    TransformerRunEnd end;
    std::vector<EpochStats> history;
    std::vector<double> testExactByEpoch;  // with each epoch's weights, as the bench measures
    int reachedEpoch = 0;                  // the first epoch at 99% on the test split; 0: not reached
    double reachedSeconds = 0;             // wall time from the run's start to the end of that epoch
    TransformerScore test;
    TransformerScore probe;
    double seconds = 0;  // training and evaluation
    int64_t parameters = 0;

    // The median of the epochs after the first, which pays for the first allocations.
    double samplesPerSecond() const
    {
        std::vector<double> rates;
        for (std::size_t i = history.size() > 1 ? 1 : 0; i < history.size(); ++i)
            rates.push_back(history[i].samplesPerSecond);
        return rates.empty() ? 0.0 : median(rates);
    }
};

const char *positionsName(PositionEncoding positions)
{
    return positions == PositionEncoding::Learned ? "learned" : "sinusoidal";
}

// --positions LIST: the position encodings to compare, in the order given.
std::vector<PositionEncoding> readPositionsList(CommandLine &cl)
{
    const auto &fields = transformerConfigFields();
    const auto field = std::find_if(fields.begin(), fields.end(), [](const FieldSpec &f) { return f.key == "positions"; });
    std::string every;
    for (const std::string &name : field->choices)
        every += (every.empty() ? "" : ",") + name;
    std::vector<PositionEncoding> list;
    std::istringstream names(cl.text("positions", every));
    for (std::string name; std::getline(names, name, ',');) {
        FieldValue value;
        const std::string problem = parseValue(*field, name, &value);
        const PositionEncoding positions = PositionEncoding(int(value.number));
        if (!problem.empty())
            cl.fail("--positions takes a comma-separated list whose items " + problem);
        else if (std::count(list.begin(), list.end(), positions) > 0)
            cl.fail("--positions lists '" + name + "' twice");
        else
            list.push_back(positions);
    }
    if (list.empty())
        cl.fail("--positions needs at least one position encoding");
    return list;
}

ComparedRun trainVariant(ComparedRun run, const Dataset &data, const DatasetConfig &d,
                         const TransformerTrainingConfig &training, const std::vector<SentencePair> &probe,
                         const std::string &checkpoint, const std::atomic<bool> *stop)
{
    const auto start = std::chrono::steady_clock::now();
    TransformerModel model(run.model, vocabularyFor(data, d), d.task, run.modelSeed);
    run.parameters = model.parameterCount();
    TransformerTrainer::Callbacks callbacks;
    callbacks.onEpoch = [&](const EpochStats &e, bool best) {
        const EpochStats *previous = model.history.size() >= 2 ? &model.history[model.history.size() - 2] : nullptr;
        const double exact = model.score(data.test).exactMatch();
        run.testExactByEpoch.push_back(exact);
        if (exact >= benchfigures::kTargetExactMatch && run.reachedEpoch == 0) {
            run.reachedEpoch = e.epoch;
            run.reachedSeconds = secondsSince(start);
        }
        std::printf("%s\n", epochLine(e, best, " | test exact " + percentText(exact), previous).c_str());
        std::fflush(stdout);
    };
    run.end = trainTransformer(model, data, training, callbacks, stop);
    run.history = model.history;
    if (run.end.bestEpoch > 0) {
        run.test = model.score(data.test);
        run.probe = model.score(probe);
        saveTransformerCheckpoint(checkpoint, model, d, training);
    }
    run.seconds = secondsSince(start);
    return run;
}

std::string comparisonTable(const std::vector<ComparedRun> &runs, int trainedMin, int trainedMax)
{
    std::ostringstream out;
    char line[256];
    std::snprintf(line, sizeof line, "%-18s %11s %7s %9s %10s %14s %11s %10s\n", "variant", "parameters", "epochs",
                  "seconds", "samples/s", "to 99% (test)", "test exact", "token acc.");
    out << line;
    for (const ComparedRun &r : runs) {
        char reached[32] = "not reached";
        if (r.reachedEpoch > 0)
            std::snprintf(reached, sizeof reached, "%.1f s, ep. %d", r.reachedSeconds, r.reachedEpoch);
        std::snprintf(line, sizeof line, "%-18s %11lld %7zu %9.0f %10.0f %14s %11s %10s\n", r.label.c_str(),
                      static_cast<long long>(r.parameters), r.history.size(), r.seconds, r.samplesPerSecond(),
                      reached, percentText(r.test.exactMatch()).c_str(), percentText(r.test.tokenAccuracy()).c_str());
        out << line;
    }
    out << "\nProbe exact match by length (trained on " << trainedMin << "-" << trainedMax << " words; * = beyond):\n";
    std::vector<std::string> labels;
    std::vector<const TransformerScore *> scores;
    for (const ComparedRun &r : runs) {
        labels.push_back(r.label);
        scores.push_back(&r.probe);
    }
    out << lengthTable(labels, scores, trainedMax);
    return out.str();
}

QJsonObject runJson(const ComparedRun &r)
{
    QJsonArray epochRates, exactByEpoch;
    for (const EpochStats &e : r.history)
        epochRates.append(e.samplesPerSecond);
    for (double exact : r.testExactByEpoch)
        exactByEpoch.append(exact);
    QJsonObject test = transformerrunfiles::scoreJson(r.test);
    test.remove("decoding");
    return QJsonObject{
        {"label", QString::fromStdString(r.label)},
        {"positions", positionsName(r.model.positions)},
        {"model", toJson(r.model, transformerConfigFields())},
        {"model_seed", double(r.modelSeed)},
        {"parameters", double(r.parameters)},
        {"epochs", int(r.history.size())},
        {"best_epoch", r.end.bestEpoch},
        {"status", r.end.statusName()},
        {"seconds", r.seconds},
        {"test", test},
        {"probe", QJsonObject{{"sentences", r.probe.sentences},
                              {"exact_match", r.probe.exactMatch()},
                              {"token_accuracy", r.probe.tokenAccuracy()}}},
        {"by_length", transformerrunfiles::byLengthJson(r.probe)},
        {"history", epochStatsJson(r.history)},
        {"train_samples_per_s", QJsonObject{{"median", r.samplesPerSecond()},
                                            {"warmup_epochs", r.history.size() > 1 ? 1 : 0},
                                            {"epochs", epochRates}}},
        {"time_to_acc", QJsonObject{{"target", benchfigures::kTargetExactMatch},
                                    {"reached", r.reachedEpoch > 0},
                                    {"epoch", r.reachedEpoch},
                                    {"wall_s", r.reachedEpoch > 0 ? QJsonValue(r.reachedSeconds) : QJsonValue()},
                                    {"test_exact_by_epoch", exactByEpoch}}}};
}

QJsonObject spreadJson(const Spread &s)
{
    return QJsonObject{{"mean", s.mean}, {"min", s.min}, {"max", s.max}, {"runs", s.runs}};
}

// Per variant trained with more than one seed: the seeds and the spread of its exact match.
QJsonArray seedSpreadJson(const std::vector<ComparedRun> &runs)
{
    QJsonArray spreads;
    std::vector<PositionEncoding> variants;
    for (const ComparedRun &r : runs)
        if (std::count(variants.begin(), variants.end(), r.model.positions) == 0)
            variants.push_back(r.model.positions);
    for (PositionEncoding variant : variants) {
        QJsonArray seeds;
        std::vector<double> test, probe;
        std::vector<std::map<int, double>> byLength;
        for (const ComparedRun &r : runs) {
            if (r.model.positions != variant)
                continue;
            seeds.append(double(r.modelSeed));
            test.push_back(r.test.exactMatch());
            probe.push_back(r.probe.exactMatch());
            byLength.push_back(exactMatchByLength(r.probe.byLength));
        }
        if (seeds.size() < 2)
            continue;
        QJsonObject lengths;
        for (const auto &[length, spread] : spreadByKey(byLength))
            lengths.insert(QString::number(length), spreadJson(spread));
        spreads.append(QJsonObject{{"positions", positionsName(variant)},
                                   {"model_seeds", seeds},
                                   {"test_exact_match", spreadJson(spreadOf(test))},
                                   {"probe_exact_match", spreadJson(spreadOf(probe))},
                                   {"probe_by_length", lengths}});
    }
    return spreads;
}

// Exact match by probe length, a line per position encoding: with --seeds, the mean in the band of its seeds.
bool writeLengthPlot(const QString &path, const std::vector<ComparedRun> &runs,
                     const std::vector<PositionEncoding> &variants, int trainedMin, int trainedMax, QString *error)
{
    LengthAccuracyPlot plot;
    plot.setTrainedRange(trainedMin, trainedMax);
    int line = 0;
    for (PositionEncoding variant : variants) {
        std::vector<std::map<int, double>> byLength;
        for (const ComparedRun &r : runs)
            if (r.model.positions == variant)
                byLength.push_back(exactMatchByLength(r.probe.byLength));
        if (!byLength.empty())
            plot.setRun(line++, QString::fromLatin1(positionsName(variant)), spreadByKey(byLength));
    }
    return plot.exportImage(path, 1000, 600, error);
}

}  // namespace

int runTransformerCompare(const std::vector<std::string> &arguments)
{
    CommandLine cl({"probe-max-len", "probe", "seeds"}, {});
    addTransformerRunOptions(cl);
    cl.parse(arguments);
    const std::vector<PositionEncoding> variants = readPositionsList(cl);
    const TransformerRunOptions options = readTransformerRunOptions(cl, {"positions"});
    const DatasetConfig &d = options.dataset;
    const TransformerTrainingConfig &t = options.training;
    const int maxLength = generatedMaxLength(d);
    const int longest = longestProbe(options.model);
    const int probeMaxLength =
        cl.integer("probe-max-len", defaultProbeMaxLength(options.model, maxLength), 1, kLongestSentence);
    const int probeCount = cl.integer("probe", kProbeSentences, 1, 1000000);
    const int seeds = cl.integer("seeds", 1, 1, 10);
    checkCompareData(cl, d, probeMaxLength);
    if (cl.ok() && probeMaxLength > longest)
        cl.fail("--probe-max-len " + std::to_string(probeMaxLength) + " is past what the positions reach: " +
                positionsProblem(options.model, probeMaxLength));
    if (!cl.ok())
        return usageError("compare --architecture transformer", cl.error());
    RunFolder folder(options.out);
    const std::optional<CompareData> prepared = prepareCompareData(d, probeMaxLength, probeCount, folder);
    if (!prepared)
        return 1;
    const Dataset &data = prepared->data;
    const std::vector<SentencePair> &probe = prepared->probe;

    const InterruptScope interrupt;
    const std::size_t total = variants.size() * std::size_t(seeds);
    std::vector<ComparedRun> runs;
    for (std::size_t i = 0; i < total && !interrupt.interrupted(); ++i) {
        ComparedRun run;
        run.model = options.model;
        run.model.positions = variants[i / std::size_t(seeds)];
        run.modelSeed = t.seed + i % std::size_t(seeds);
        run.label = positionsName(run.model.positions);
        if (seeds > 1)
            run.label += "-seed" + std::to_string(run.modelSeed);
        std::printf("\n== %s (%zu of %zu) ==\n", run.label.c_str(), i + 1, total);
        std::fflush(stdout);
        try {
            runs.push_back(trainVariant(run, data, d, t, probe, folder.file(run.label + ".ckpt").toStdString(),
                                        interrupt.flag()));
        } catch (const std::invalid_argument &e) {
            return failure(e.what());
        } catch (const TransformerCheckpointError &e) {
            return failure(e.what());
        }
        const ComparedRun &r = runs.back();
        std::printf("%s\ntest exact match %s, token accuracy %s | %.0f s | %lld parameters\n", r.end.message.c_str(),
                    percentText(r.test.exactMatch()).c_str(), percentText(r.test.tokenAccuracy()).c_str(), r.seconds,
                    static_cast<long long>(r.parameters));
    }

    std::cout << "\n" << comparisonTable(runs, d.minLength, maxLength);
    if (std::count(variants.begin(), variants.end(), PositionEncoding::Learned) > 0 && probeMaxLength > maxLength)
        std::cout << "\nLearned positions are trained only up to the longest training sentence (" << maxLength
                  << " words); past it they keep their random initial vectors.\n";
    QJsonObject root{{"architecture", "transformer"},
                     {"runs", [&] {
                          QJsonArray array;
                          for (const ComparedRun &r : runs)
                              array.append(runJson(r));
                          return array;
                      }()},
                     {"dataset", datasetJson(d)},
                     {"probe", QJsonObject{{"min_len", d.minLength},
                                           {"max_len", probeMaxLength},
                                           {"sentences", int(probe.size())},
                                           {"seed", double(d.seed + 1)}}},
                     {"training", toJson(t, transformerTrainingConfigFields())},
                     {"decoding", "greedy, batched"}};
    if (const QJsonArray spreads = seedSpreadJson(runs); !spreads.isEmpty())
        root.insert("seed_spread", spreads);
    QString error;
    if (!writeFileAtomically(folder.file("comparison.json"), QJsonDocument(root).toJson(QJsonDocument::Indented),
                             &error) ||
        !writeLengthPlot(folder.file("comparison.png"), runs, variants, d.minLength, maxLength, &error))
        return failure(error.toStdString());
    std::cout << "\nWrote comparison.json, comparison.png and a checkpoint per run to " << folder.path() << "\n";
    const bool allTrained = std::all_of(runs.begin(), runs.end(), [](const ComparedRun &r) {
        return r.end.bestEpoch > 0 && r.end.status != TransformerRunEnd::Status::Diverged;
    });
    return allTrained && runs.size() == total ? 0 : 1;
}
