#include "app/attention/commands.h"

#include "app/attention/beamtable.h"
#include "app/attention/commandmodel.h"
#include "app/attention/runfiles.h"
#include "app/attention/runoptions.h"
#include "app/core/commandline.h"
#include "app/core/comparedata.h"
#include "app/core/epochline.h"
#include "app/core/interruptscope.h"
#include "app/core/runfolder.h"
#include "engine/attention/alignmentscore.h"
#include "engine/attention/attentionanalysis.h"
#include "engine/attention/beamevaluation.h"
#include "engine/core/beamsearch.h"
#include "engine/attention/checkpointformat.h"
#include "engine/attention/evaluation.h"
#include "engine/attention/experiment.h"
#include "engine/attention/lengthreport.h"
#include "engine/attention/projectfile.h"
#include "engine/attention/seq2seqmodel.h"
#include "engine/attention/trainer.h"
#include "engine/attention/trainingconfig.h"
#include "engine/core/corpusdefaults.h"
#include "engine/core/dataset.h"
#include "engine/core/tokenizer.h"

#include <QString>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <set>
#include <stdexcept>
#include <sstream>

namespace {

constexpr int kExamplesShown = 10;

// `alignment`: the validation set's alignment after this epoch, for a model with attention;
// `previous`: the epoch before, if there was one, to say why validation fell (validationfall.h).
void printEpoch(const EpochStats &e, bool best, const AlignmentScore *alignment = nullptr,
                const EpochStats *previous = nullptr)
{
    const std::string aligned = alignment ? " | val aligned " + percentText(alignment->accuracy()) : std::string();
    std::printf("%s\n", epochLine(e, best, aligned, previous).c_str());
    std::fflush(stdout);
}

void printReport(const EvaluationReport &report, int examples, DecodeMode mode)
{
    for (int i = 0; i < std::min<int>(examples, int(report.examples.size())); ++i)
        std::cout << formatExample(report.examples[std::size_t(i)]) << "\n";
    std::cout << "\nTest exact match: " << percentText(report.exactMatch) << " (" << report.sentences
              << " sentences, greedy, " << (mode == DecodeMode::Batched ? "in padded batches" : "one at a time")
              << ") | token accuracy: " << percentText(report.tokenAccuracy) << "\n"
              << "By length:";
    for (const auto &[length, bucket] : report.byLength)
        std::cout << "  " << length << ": " << percentText(double(bucket.correct) / bucket.total);
    std::cout << "\n";
    const LengthAccuracy &unknown = report.withUnknownWords;
    if (unknown.total > 0)
        std::cout << "Sentences with words outside the vocabulary: " << unknown.total << ", exact match "
                  << percentText(double(unknown.correct) / unknown.total) << "\n";
}

std::string examplesText(const EvaluationReport &report)
{
    std::ostringstream out;
    for (const Example &e : report.examples)
        out << formatExample(e) << "\n";
    return out.str();
}

// The longest test sentence shows the most structure in a heatmap.
const SentencePair &heatmapSentence(const std::vector<SentencePair> &test)
{
    return *std::max_element(test.begin(), test.end(),
                             [](const SentencePair &a, const SentencePair &b) { return a.source.size() < b.source.size(); });
}

// The runs side by side: test scores, then exact match on the probe set by length.
std::string comparisonTable(const std::vector<ExperimentResult> &results, int trainedMin, int trainedMax)
{
    std::ostringstream out;
    char line[256];
    std::snprintf(line, sizeof line, "%-14s %11s %7s %9s %11s %10s\n", "variant", "parameters", "epochs", "seconds",
                  "test exact", "token acc.");
    out << line;
    for (const ExperimentResult &r : results) {
        std::snprintf(line, sizeof line, "%-14s %11lld %7zu %9.0f %11s %10s\n", r.label.c_str(),
                      static_cast<long long>(r.parameters), r.history.size(), r.seconds,
                      percentText(r.test.exactMatch).c_str(), percentText(r.test.tokenAccuracy).c_str());
        out << line;
    }
    out << "\nProbe exact match by length (trained on " << trainedMin << "-" << trainedMax << " words; * = beyond):\n";
    std::snprintf(line, sizeof line, "%-7s", "length");
    out << line;
    for (const ExperimentResult &r : results) {
        std::snprintf(line, sizeof line, " %14s", r.label.c_str());
        out << line;
    }
    out << "\n";
    std::set<int> lengths;
    for (const ExperimentResult &r : results)
        for (const auto &entry : r.probe.byLength)
            lengths.insert(entry.first);
    for (int length : lengths) {
        std::snprintf(line, sizeof line, "%-7s", (std::to_string(length) + (length > trainedMax ? "*" : "")).c_str());
        out << line;
        for (const ExperimentResult &r : results) {
            const auto found = r.probe.byLength.find(length);
            const std::string cell = found == r.probe.byLength.end() || found->second.total == 0
                                         ? "-"
                                         : percentText(double(found->second.correct) / found->second.total);
            std::snprintf(line, sizeof line, " %14s", cell.c_str());
            out << line;
        }
        out << "\n";
    }
    return out.str();
}

// The attention field, for compare's list of variants.
const FieldSpec &attentionField()
{
    for (const FieldSpec &field : modelConfigFields())
        if (field.key == "attention")
            return field;
    throw std::logic_error("ModelConfig has no attention field");
}

// Before training, so that a limit or a vocabulary that does not suit the file is seen at once.
void printCorpusSettings(const Dataset &data, const DatasetConfig &d, const TrainingConfig &t, int vocabularySize)
{
    const std::string limitFrom = data.lengthPercentile > 0
                                      ? " (auto: the " + std::to_string(data.lengthPercentile)
                                            + "th percentile of the file's line lengths)"
                                      : "";
    std::printf("corpus: lengths %d-%d tokens%s; skipped %d blank, %d longer and %d shorter lines\n", d.minLength,
                data.maxLength, limitFrom.c_str(), data.skippedBlank, data.skippedTooLong, data.skippedTooShort);
    std::printf("vocabulary: %d words, those seen at least %d times%s, at most %d%s\n", vocabularySize,
                effectiveMinCount(d), d.minCount == 0 ? " (auto)" : "", effectiveMaxVocabulary(d),
                d.maxVocabulary == 0 ? " (auto)" : "");
    const double epochDecay = effectiveEpochDecay(t, /*corpus=*/true);
    const char *autoNote = t.learningRateEpochDecay == 0 ? " (auto)" : "";
    if (epochDecay < 1)
        std::printf("learning rate: x%g per epoch%s, x%g after an epoch without a better validation loss\n",
                    epochDecay, autoNote, t.learningRateDecay);
    else
        std::printf("learning rate: no decay per epoch%s, x%g after an epoch without a better validation loss\n",
                    autoNote, t.learningRateDecay);
}

}

int runTrain(const std::vector<std::string> &arguments)
{
    CommandLine cl({}, {"no-embed-corpus"});
    addRunOptions(cl);
    cl.parse(arguments);
    const RunOptions options = readRunOptions(cl);
    if (!cl.ok())
        return usageError("train", cl.error());
    const DatasetConfig &d = options.dataset;
    const ModelConfig &m = options.model;
    TrainingConfig t = options.training;
    Dataset data;
    try {
        data = Dataset::build(d);
    } catch (const DatasetError &e) {
        return failure(e.what());
    }
    RunFolder folder(options.out);
    if (std::string problem; !folder.create(&problem))
        return failure(problem);
    Seq2SeqModel model = Seq2SeqModel::forDataset(m, data, d, t.seed);
    const Vocabulary &vocabulary = model.vocabulary();
    t.checkpointPath = folder.file("model.ckpt").toStdString();
    std::printf("task %s | %zu train / %zu val / %zu test sentences | vocabulary %d | attention %s%s | %lld "
                "parameters\n",
                taskName(d.task), data.train.size(), data.val.size(), data.test.size(), vocabulary.size(),
                attentionName(model.config().attention), model.config().usesPointer() ? " with pointer" : "",
                static_cast<long long>(model.parameterCount()));
    if (data.fromCorpus)
        printCorpusSettings(data, d, t, vocabulary.size());

    const InterruptScope interrupt;
    Trainer trainer(model, data, t);
    Trainer::Callbacks callbacks;
    std::vector<EpochAlignment> alignment;
    WeightHistory weights;
    callbacks.onEpoch = [&](const EpochStats &e, bool best) {
        weights.add(e.epoch, model);
        const EpochStats *previous = model.history.size() >= 2 ? &model.history[model.history.size() - 2] : nullptr;
        if (!model.hasAttention()) {
            printEpoch(e, best, nullptr, previous);
            return;
        }
        alignment.push_back({e.epoch, measureAlignment(model, data.val, d.task)});
        printEpoch(e, best, &alignment.back().score, previous);
    };
    const TrainingOutcome outcome = trainer.run(callbacks, interrupt.flag());
    std::cout << outcome.message << "\n";
    if (outcome.bestEpoch == 0) {
        folder.abandon();
        return failure("no epoch completed, so there is no model to evaluate");
    }
    try {
        model.save(t.checkpointPath);
    } catch (const CheckpointError &e) {
        return failure(e.what());
    }

    const EvaluationReport report = evaluate(model, data.test, DecodeMode::OneAtATime);
    std::cout << "\n";
    printReport(report, kExamplesShown, DecodeMode::OneAtATime);
    if (data.fromCorpus)
        std::cout << "\nExact match by length beside the corpus:\n"
                  << formatLengthReport(lengthReport(data, report));
    const AttentionAnalysis analysis = analyseAttention(model, data.test, d.task);
    const DecodedSentence shown = model.decode(heatmapSentence(data.test).source);

    QString error;
    if (!folder.writeMetrics(runfiles::metricsJson(model, data, t, outcome, report, alignment), &error)
        || !runfiles::writeText(folder.file("examples.txt"), examplesText(report), &error)
        || !runfiles::writeText(folder.file("analysis.md"), analysisMarkdown(analysis, report, model.history, alignment),
                                &error)
        || !runfiles::writeHeatmap(folder.file("attention_heatmap.png"), shown, &error))
        return failure(error.toStdString());

    // The run as the desktop app opens it, showing the heatmap sentence above.
    AttentionProject project;
    project.dataset = d;
    project.model = m;
    project.training = t;
    project.threadsUsed = trainingThreads(t);
    project.best = std::make_shared<const Seq2SeqModel>(model.clone());
    project.weights = std::move(weights);
    project.alignment = alignment;
    project.sentence = joinTokens(heatmapSentence(data.test).source);
    try {
        if (!d.corpusPath.empty())
            project.corpus = projectfile::copyCorpus(d.corpusPath, !cl.flag("no-embed-corpus"));
        projectfile::save(project, folder.file("project.attnscope").toStdString());
    } catch (const ProjectError &e) {
        return failure(e.what());
    }
    std::cout << "\nWrote model.ckpt, project.attnscope, metrics.json, examples.txt, analysis.md and "
                 "attention_heatmap.png to "
              << folder.path() << "\n";
    return outcome.status == TrainingOutcome::Status::Diverged ? 1 : 0;
}

int runCompare(const std::vector<std::string> &arguments)
{
    CommandLine cl({"probe-max-len", "probe", "seeds"}, {});
    addRunOptions(cl);
    cl.parse(arguments);
    const FieldSpec &attention = attentionField();
    std::string every;
    for (const std::string &name : attention.choices)
        every += (every.empty() ? "" : ",") + name;
    std::vector<AttentionKind> kinds;
    std::istringstream list(cl.text("attention", every));
    for (std::string name; std::getline(list, name, ',');) {
        FieldValue kind;
        const std::string problem = parseValue(attention, name, &kind);
        if (!problem.empty())
            cl.fail("--attention takes a comma-separated list whose items " + problem);
        else if (std::find(kinds.begin(), kinds.end(), AttentionKind(int(kind.number))) != kinds.end())
            cl.fail("--attention lists '" + name + "' twice");
        else
            kinds.push_back(AttentionKind(int(kind.number)));
    }
    if (kinds.empty())
        cl.fail("--attention needs at least one variant");
    const RunOptions options = readRunOptions(cl, {"attention"});
    const DatasetConfig &d = options.dataset;
    const ModelConfig &m = options.model;
    const TrainingConfig &t = options.training;
    const int maxLength = generatedMaxLength(d);
    const int probeMaxLength = cl.integer("probe-max-len", std::min(3 * maxLength, Seq2SeqModel::kMaxInputTokens), 1,
                                          Seq2SeqModel::kMaxInputTokens);
    const int probeCount = cl.integer("probe", 2000, 1, 1000000);
    const int seeds = cl.integer("seeds", 1, 1, 10);
    checkCompareData(cl, d, probeMaxLength);
    if (!cl.ok())
        return usageError("compare", cl.error());
    RunFolder folder(options.out);
    const std::optional<CompareData> prepared = prepareCompareData(d, probeMaxLength, probeCount, folder);
    if (!prepared)
        return 1;
    const Dataset &data = prepared->data;
    const std::vector<SentencePair> &probe = prepared->probe;

    const InterruptScope interrupt;
    std::vector<ModelConfig> variants;
    for (const AttentionKind kind : kinds) {
        variants.push_back(m);
        variants.back().attention = kind;
    }
    const std::vector<ExperimentRun> runs = experimentRuns(variants, t.seed, seeds);
    std::vector<ExperimentResult> results;
    for (std::size_t i = 0; i < runs.size() && !interrupt.interrupted(); ++i) {
        const ExperimentRun &run = runs[i];
        std::string name = attentionName(run.model.attention);
        if (seeds > 1)
            name += "-seed" + std::to_string(run.modelSeed);
        TrainingConfig training = t;
        training.checkpointPath = folder.file(name + ".ckpt").toStdString();
        std::printf("\n== %s (%zu of %zu) ==\n", name.c_str(), i + 1, runs.size());
        std::fflush(stdout);
        Trainer::Callbacks callbacks;
        callbacks.onEpoch = [](const EpochStats &e, bool best) { printEpoch(e, best); };
        try {
            results.push_back(
                runExperiment(name, data, d, run.model, run.modelSeed, training, probe, callbacks, interrupt.flag()));
        } catch (const CheckpointError &e) {
            return failure(e.what());
        }
        const ExperimentResult &r = results.back();
        std::printf("%s\ntest exact match %s, token accuracy %s | %.0f s | %lld parameters\n",
                    r.outcome.message.c_str(), percentText(r.test.exactMatch).c_str(),
                    percentText(r.test.tokenAccuracy).c_str(), r.seconds, static_cast<long long>(r.parameters));
    }

    std::cout << "\n" << comparisonTable(results, d.minLength, maxLength);
    QString error;
    if (!runfiles::writeComparison(folder.file("comparison.json"), results, d, t, probeMaxLength, int(probe.size()), &error)
        || !runfiles::writeLengthPlot(folder.file("comparison.png"), results, d.minLength, maxLength, &error))
        return failure(error.toStdString());
    std::cout << "\nWrote comparison.json, comparison.png and a checkpoint per run to " << folder.path() << "\n";
    const bool allTrained = std::all_of(results.begin(), results.end(), [](const ExperimentResult &r) {
        return r.outcome.bestEpoch > 0 && r.outcome.status != TrainingOutcome::Status::Diverged;
    });
    return allTrained && results.size() == runs.size() ? 0 : 1;
}

// The n-best list under the best output, for a person reading it.
void printNBest(const BeamDecoded &decoded, const BeamOptions &beam)
{
    std::printf("n-best (beam %d, alpha %g; score = log P / length^alpha):\n", beam.width, beam.alpha);
    for (std::size_t i = 0; i < decoded.nbest.size(); ++i) {
        const ScoredSentence &h = decoded.nbest[i];
        const bool ended = !h.sentence.outputTokens.empty() && h.sentence.outputTokens.back() == "<EOS>";
        std::printf("%3zu. score %8.4f  log P %8.4f  %s%s\n", i + 1, h.score, h.logProb, h.sentence.text().c_str(),
                    ended ? "" : "  (no <EOS>: maximum length)");
    }
}

int runReverse(const std::vector<std::string> &arguments)
{
    CommandLine cl(arguments, {"model", "heatmap", "beam", "alpha", "nbest"}, {"json", "no-unk-replace"});
    if (cl.positional().size() != 1)
        cl.fail("give exactly one sentence (quote it): attnscope reverse [--model FILE] \"the cat sat\"");
    BeamOptions beam;
    beam.width = cl.integer("beam", beam.width, 1, kMaxBeamWidth);
    beam.alpha = cl.number("alpha", beam.alpha, 0.0, kMaxLengthAlpha);
    beam.nbest = cl.integer("nbest", beam.nbest, 1, kMaxBeamWidth);
    if (cl.ok() && beam.nbest > beam.width)
        cl.fail("--nbest " + std::to_string(beam.nbest) + " is more than the beam keeps (--beam "
                + std::to_string(beam.width) + ")");
    if (!cl.ok())
        return usageError("reverse", cl.error());
    try {
        const Seq2SeqModel model = modelToUse(cl);
        DecodeOptions options;
        options.replaceUnknown = !cl.flag("no-unk-replace") && model.hasAttention();
        if (!model.hasAttention() && !cl.flag("no-unk-replace"))
            std::cerr << "note: this model has no attention (variant none), so an <UNK> output is not replaced "
                         "by a source word\n";
        const bool searchBeam = beam.width > 1 || beam.nbest > 1;
        BeamDecoded decoded;
        if (searchBeam) {
            decoded = model.beamReverse(cl.positional().front(), beam, options);
            if (decoded.nbest.empty())
                return failure("the model gave no finite scores (is it damaged?)");
        }
        const DecodedSentence result =
            searchBeam ? decoded.nbest.front().sentence : model.reverse(cl.positional().front(), options);
        if (result.truncatedInput)
            std::cerr << "note: the input was cut to its first " << Seq2SeqModel::kMaxInputTokens << " tokens\n";
        if (cl.flag("json")) {
            std::cout << (searchBeam ? runfiles::beamJson(decoded, beam, model.vocabulary(), options.replaceUnknown)
                                     : runfiles::decodedJson(result, options.replaceUnknown))
                             .toStdString();
        } else {
            std::cout << result.text() << "\n";
            if (searchBeam)
                printNBest(decoded, beam);
        }
        QString error;
        if (cl.has("heatmap") && !runfiles::writeHeatmap(QString::fromStdString(cl.text("heatmap")), result, &error))
            return failure(error.toStdString());
    } catch (const CheckpointError &e) {
        return failure(e.what());
    }
    return 0;
}

int runEvaluate(const std::vector<std::string> &arguments)
{
    CommandLine cl(arguments, {"model", "corpus", "examples", "beam", "alpha"}, {"batched", "beams", "json"});
    const int examples = cl.integer("examples", kExamplesShown, 0, 1000000);
    const int width = cl.integer("beam", 1, 1, kMaxBeamWidth);
    const double alpha = cl.number("alpha", 0.6, 0, kMaxLengthAlpha);
    const bool beams = cl.flag("beams"), beam = cl.has("beam") || beams;
    if (!cl.positional().empty())
        cl.fail("unexpected argument '" + cl.positional().front() + "'");
    else if (beams && cl.has("beam"))
        cl.fail("--beams compares the course's widths; give it or --beam K, not both");
    else if (cl.has("alpha") && !cl.has("beam"))
        cl.fail("--alpha goes with --beam K");
    else if (cl.flag("json") && !beam)
        cl.fail("--json goes with --beam K or --beams");
    else if (cl.flag("batched") && beam)
        cl.fail("--batched decodes greedily; beam search decodes one sentence at a time");
    if (!cl.ok())
        return usageError("evaluate", cl.error());
    try {
        const Seq2SeqModel model = modelToUse(cl);
        DatasetConfig d = model.datasetConfig;
        std::vector<SentencePair> data;
        if (cl.has("corpus")) {
            d.corpusPath = cl.text("corpus");
            Dataset all = Dataset::build(d);
            for (auto *split : {&all.train, &all.val, &all.test})
                data.insert(data.end(), split->begin(), split->end());
        } else {
            data = Dataset::build(d).test;
        }
        if (beam) {
            const std::vector<BeamSetting> settings =
                beams ? courseBeamSettings() : std::vector<BeamSetting>{{1, 0.0}, {width, alpha}};
            const InterruptScope interrupt;
            const BeamEvaluation evaluation =
                evaluateBeams(model, data, settings, [&](int done, int total) {
                    if (done % 100 == 0 || done == total)
                        std::fprintf(stderr, "decoded %d of %d sentences\r", done, total);
                    return !interrupt.interrupted();
                });
            std::fprintf(stderr, "\n");
            if (interrupt.interrupted())
                return failure("interrupted: nothing written");
            if (cl.flag("json"))
                std::cout << beamEvaluationJson(evaluation).toStdString();
            else
                std::cout << beamEvaluationText(evaluation, examples);
            return 0;
        }
        const DecodeMode mode = cl.flag("batched") ? DecodeMode::Batched : DecodeMode::OneAtATime;
        printReport(evaluate(model, data, mode), examples, mode);
    } catch (const CheckpointError &e) {
        return failure(e.what());
    } catch (const DatasetError &e) {
        return failure(e.what());
    }
    return 0;
}
