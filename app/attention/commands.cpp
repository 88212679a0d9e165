#include "app/attention/commands.h"

#include "app/attention/runfiles.h"
#include "app/commandline.h"
#include "engine/attention/attentionanalysis.h"
#include "engine/attention/dataset.h"
#include "engine/attention/evaluation.h"
#include "engine/attention/experiment.h"
#include "engine/attention/seq2seqmodel.h"
#include "engine/attention/trainer.h"

#include <QDir>
#include <QString>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>

namespace {

constexpr int kUsageError = 2;
constexpr int kExamplesShown = 10;
std::atomic<bool> g_interrupted{false};

int usageError(const std::string &command, const std::string &message)
{
    std::cerr << "attnscope " << command << ": " << message << "\n"
              << "Run 'attnscope --help' for the options.\n";
    return kUsageError;
}

int failure(const std::string &message)
{
    std::cerr << "error: " << message << "\n";
    return 1;
}

std::string percent(double share)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.2f%%", 100.0 * share);
    return buffer;
}

std::vector<std::string> readWords(const std::string &path, std::string *error)
{
    std::ifstream in(path);
    if (!in) {
        *error = "cannot open words file '" + path + "'";
        return {};
    }
    std::vector<std::string> words;
    std::string word;
    while (in >> word)
        if (std::find(words.begin(), words.end(), word) == words.end())
            words.push_back(word);
    if (words.empty())
        *error = "words file '" + path + "' has no words";
    return words;
}

void printEpoch(const EpochStats &e, bool best)
{
    std::printf("epoch %3d | train loss %.4f | val loss %.4f | val exact %7s | %6.1f s | %6.0f samples/s%s\n", e.epoch,
                e.trainLoss, e.valLoss, percent(e.valExactMatch).c_str(), e.seconds, e.samplesPerSecond,
                best ? " | best" : "");
    std::fflush(stdout);
}

void printReport(const EvaluationReport &report, int examples, DecodeMode mode)
{
    for (int i = 0; i < std::min<int>(examples, int(report.examples.size())); ++i)
        std::cout << formatExample(report.examples[std::size_t(i)]) << "\n";
    std::cout << "\nTest exact match: " << percent(report.exactMatch) << " (" << report.sentences
              << " sentences, greedy, " << (mode == DecodeMode::Batched ? "in padded batches" : "one at a time")
              << ") | token accuracy: " << percent(report.tokenAccuracy) << "\n"
              << "By length:";
    for (const auto &[length, bucket] : report.byLength)
        std::cout << "  " << length << ": " << percent(double(bucket.correct) / bucket.total);
    std::cout << "\n";
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
                      percent(r.test.exactMatch).c_str(), percent(r.test.tokenAccuracy).c_str());
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
                                         : percent(double(found->second.correct) / found->second.total);
            std::snprintf(line, sizeof line, " %14s", cell.c_str());
            out << line;
        }
        out << "\n";
    }
    return out.str();
}

// The options train and compare share: dataset, model (but --attention) and training.
const std::set<std::string> kRunOptions = {"task", "words-file", "corpus", "min-len", "max-len", "train", "val",
                                           "test", "embed", "hidden", "layers", "dropout", "teacher-forcing", "lr",
                                           "batch", "epochs", "clip", "seed", "data-seed", "threads", "patience",
                                           "unk-rate", "weight-decay", "lr-decay", "lr-epoch-decay", "out", "attention"};
const std::set<std::string> kRunFlags = {"bidirectional", "no-bidirectional", "keep-case"};

// Reads the shared options into `d`, `m` and `t`; problems go to `cl`.
void readRunOptions(CommandLine &cl, DatasetConfig &d, ModelConfig &m, TrainingConfig &t)
{
    if (cl.has("task") && !parseTask(cl.text("task"), &d.task))
        cl.fail("--task must be 'reverse' or 'copy', got '" + cl.text("task") + "'");
    if (cl.has("words-file")) {
        std::string error;
        d.words = readWords(cl.text("words-file"), &error);
        if (!error.empty())
            cl.fail(error);
    }
    d.corpusPath = cl.text("corpus");
    d.minLength = cl.integer("min-len", d.minLength, 1, 100);
    d.maxLength = cl.integer("max-len", d.maxLength, 1, 100);
    d.trainSize = cl.integer("train", d.trainSize, 1, 10000000);
    d.valSize = cl.integer("val", d.valSize, 1, 10000000);
    d.testSize = cl.integer("test", d.testSize, 1, 10000000);
    d.lowercase = !cl.flag("keep-case");
    m.embedSize = cl.integer("embed", m.embedSize, 1, 4096);
    m.hiddenSize = cl.integer("hidden", m.hiddenSize, 2, 4096);
    m.layers = cl.integer("layers", m.layers, 1, 8);
    m.dropout = cl.number("dropout", m.dropout, 0.0, 0.95);
    if (cl.flag("no-bidirectional"))
        m.bidirectional = false;
    t.teacherForcing = cl.number("teacher-forcing", t.teacherForcing, 0.0, 1.0);
    t.learningRate = cl.number("lr", t.learningRate, 1e-12, 1e6);
    t.learningRateDecay = cl.number("lr-decay", t.learningRateDecay, 1e-6, 1.0);
    t.learningRateEpochDecay = cl.number("lr-epoch-decay", t.learningRateEpochDecay, 1e-6, 1.0);
    t.batchSize = cl.integer("batch", t.batchSize, 1, 65536);
    t.epochs = cl.integer("epochs", t.epochs, 1, 100000);
    t.clipNorm = cl.number("clip", t.clipNorm, 0.0, 1e9);
    t.seed = std::uint64_t(cl.integer("seed", int(t.seed), 0, 2147483647));
    d.seed = std::uint64_t(cl.integer("data-seed", int(t.seed), 0, 2147483647));
    t.threads = cl.integer("threads", t.threads, 0, 1024);
    t.patience = cl.integer("patience", t.patience, 0, 100000);
    t.unknownWordRate = cl.number("unk-rate", t.unknownWordRate, 0.0, 0.5);
    t.weightDecay = cl.number("weight-decay", t.weightDecay, 0.0, 1.0);
    if (cl.text("out").empty())
        cl.fail("--out DIR is required (the folder for the model files and the reports)");
    if (!cl.positional().empty())
        cl.fail("unexpected argument '" + cl.positional().front() + "'");
    for (const std::string &problem : {validate(d), validate(m), validate(t)})
        if (!problem.empty())
            cl.fail(problem);
}

QString outputFile(const std::string &folder, const std::string &name)
{
    return QDir(QString::fromStdString(folder)).filePath(QString::fromStdString(name));
}

std::string attentionChoices()
{
    return "'bahdanau', 'luong-dot', 'luong-general' or 'none'";
}

}

int runTrain(const std::vector<std::string> &arguments)
{
    CommandLine cl(arguments, kRunOptions, kRunFlags);
    DatasetConfig d;
    ModelConfig m;
    TrainingConfig t;
    if (cl.has("attention") && !parseAttention(cl.text("attention"), &m.attention))
        cl.fail("--attention must be " + attentionChoices() + ", got '" + cl.text("attention") + "'");
    readRunOptions(cl, d, m, t);
    if (!cl.ok())
        return usageError("train", cl.error());
    const std::string out = cl.text("out");
    if (!QDir().mkpath(QString::fromStdString(out)))
        return failure("cannot create output folder '" + out + "'");
    const auto file = [&](const std::string &name) { return outputFile(out, name); };

    Dataset data;
    try {
        data = Dataset::build(d);
    } catch (const DatasetError &e) {
        return failure(e.what());
    }
    const Vocabulary vocabulary = Vocabulary::build(data.train, d.maxVocabulary, d.minCount);
    Seq2SeqModel model(m, vocabulary, t.seed);
    model.datasetConfig = d;
    t.checkpointPath = file("model.ckpt").toStdString();
    std::printf("task %s | %zu train / %zu val / %zu test sentences | vocabulary %d | attention %s | %lld parameters\n",
                taskName(d.task), data.train.size(), data.val.size(), data.test.size(), vocabulary.size(),
                attentionName(m.attention), static_cast<long long>(model.parameterCount()));
    if (data.skippedBlank + data.skippedTooLong + data.skippedTooShort > 0)
        std::printf("corpus: skipped %d blank lines, %d lines longer than %d tokens, %d shorter than %d\n",
                    data.skippedBlank, data.skippedTooLong, d.maxLength, data.skippedTooShort, d.minLength);

    std::signal(SIGINT, [](int) { g_interrupted = true; });
    Trainer trainer(model, data, t);
    Trainer::Callbacks callbacks;
    callbacks.onEpoch = printEpoch;
    const TrainingOutcome outcome = trainer.run(callbacks, &g_interrupted);
    std::signal(SIGINT, SIG_DFL);
    std::cout << outcome.message << "\n";
    if (outcome.bestEpoch == 0)
        return failure("no epoch completed, so there is no model to evaluate");
    try {
        model.save(t.checkpointPath);
    } catch (const CheckpointError &e) {
        return failure(e.what());
    }

    const EvaluationReport report = evaluate(model, data.test, DecodeMode::OneAtATime);
    std::cout << "\n";
    printReport(report, kExamplesShown, DecodeMode::OneAtATime);
    const AttentionAnalysis analysis = analyseAttention(model, data.test, d.task);
    const DecodedSentence shown = model.decode(heatmapSentence(data.test).source);

    QString error;
    if (!runfiles::writeMetrics(file("metrics.json"), model, t, outcome, report, &error)
        || !runfiles::writeText(file("examples.txt"), examplesText(report), &error)
        || !runfiles::writeText(file("analysis.md"), analysisMarkdown(analysis, report), &error)
        || !runfiles::writeHeatmap(file("attention_heatmap.png"), shown, &error))
        return failure(error.toStdString());
    std::cout << "\nWrote model.ckpt, metrics.json, examples.txt, analysis.md and attention_heatmap.png to " << out
              << "\n";
    return outcome.status == TrainingOutcome::Status::Diverged ? 1 : 0;
}

int runCompare(const std::vector<std::string> &arguments)
{
    std::set<std::string> options = kRunOptions;
    options.insert({"probe-max-len", "probe"});
    CommandLine cl(arguments, options, kRunFlags);
    DatasetConfig d;
    ModelConfig m;
    TrainingConfig t;
    std::vector<AttentionKind> kinds;
    std::istringstream list(cl.text("attention", "bahdanau,luong-dot,luong-general,none"));
    for (std::string name; std::getline(list, name, ',');) {
        AttentionKind kind;
        if (!parseAttention(name, &kind))
            cl.fail("--attention takes a comma-separated list of " + attentionChoices() + ", got '" + name + "'");
        else if (std::find(kinds.begin(), kinds.end(), kind) != kinds.end())
            cl.fail("--attention lists '" + name + "' twice");
        else
            kinds.push_back(kind);
    }
    if (kinds.empty())
        cl.fail("--attention needs at least one variant");
    readRunOptions(cl, d, m, t);
    const int probeMaxLength = cl.integer("probe-max-len", std::max(20, d.maxLength), 1, 100);
    const int probeCount = cl.integer("probe", 2000, 1, 1000000);
    if (probeMaxLength < d.maxLength)
        cl.fail("--probe-max-len " + std::to_string(probeMaxLength) + " is below --max-len "
                + std::to_string(d.maxLength) + "; the probe covers the trained lengths and beyond");
    if (!d.corpusPath.empty())
        cl.fail("compare generates its sentences, so that it can probe any length; --corpus is not supported");
    if (!cl.ok())
        return usageError("compare", cl.error());
    const std::string out = cl.text("out");
    if (!QDir().mkpath(QString::fromStdString(out)))
        return failure("cannot create output folder '" + out + "'");
    const auto file = [&](const std::string &name) { return outputFile(out, name); };

    Dataset data;
    std::vector<SentencePair> probe;
    try {
        data = Dataset::build(d);
        probe = probeSet(d, probeMaxLength, probeCount);
    } catch (const DatasetError &e) {
        return failure(e.what());
    }
    std::printf("task %s | %zu train / %zu val / %zu test sentences, lengths %d-%d | probe %zu sentences, lengths "
                "%d-%d\n",
                taskName(d.task), data.train.size(), data.val.size(), data.test.size(), d.minLength, d.maxLength,
                probe.size(), d.minLength, probeMaxLength);

    std::signal(SIGINT, [](int) { g_interrupted = true; });
    std::vector<ExperimentResult> results;
    for (std::size_t i = 0; i < kinds.size() && !g_interrupted; ++i) {
        ModelConfig variant = m;
        variant.attention = kinds[i];
        const std::string name = attentionName(kinds[i]);
        TrainingConfig training = t;
        training.checkpointPath = file(name + ".ckpt").toStdString();
        std::printf("\n== %s (%zu of %zu) ==\n", name.c_str(), i + 1, kinds.size());
        std::fflush(stdout);
        Trainer::Callbacks callbacks;
        callbacks.onEpoch = printEpoch;
        try {
            results.push_back(runExperiment(name, data, d, variant, training, probe, callbacks, &g_interrupted));
        } catch (const CheckpointError &e) {
            return failure(e.what());
        }
        const ExperimentResult &r = results.back();
        std::printf("%s\ntest exact match %s, token accuracy %s | %.0f s | %lld parameters\n",
                    r.outcome.message.c_str(), percent(r.test.exactMatch).c_str(),
                    percent(r.test.tokenAccuracy).c_str(), r.seconds, static_cast<long long>(r.parameters));
    }
    std::signal(SIGINT, SIG_DFL);

    std::cout << "\n" << comparisonTable(results, d.minLength, d.maxLength);
    QString error;
    if (!runfiles::writeComparison(file("comparison.json"), results, d, t, probeMaxLength, int(probe.size()), &error)
        || !runfiles::writeLengthPlot(file("comparison.png"), results, d.minLength, d.maxLength, &error))
        return failure(error.toStdString());
    std::cout << "\nWrote comparison.json, comparison.png and a checkpoint per variant to " << out << "\n";
    const bool allTrained = std::all_of(results.begin(), results.end(), [](const ExperimentResult &r) {
        return r.outcome.bestEpoch > 0 && r.outcome.status != TrainingOutcome::Status::Diverged;
    });
    return allTrained && results.size() == kinds.size() ? 0 : 1;
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
    if (!cl.has("model"))
        cl.fail("--model FILE is required");
    if (cl.positional().size() != 1)
        cl.fail("give exactly one sentence (quote it): attnscope reverse --model FILE \"the cat sat\"");
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
        const Seq2SeqModel model = Seq2SeqModel::load(cl.text("model"));
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
    CommandLine cl(arguments, {"model", "corpus", "examples"}, {"batched"});
    if (!cl.has("model"))
        cl.fail("--model FILE is required");
    const int examples = cl.integer("examples", kExamplesShown, 0, 1000000);
    if (!cl.positional().empty())
        cl.fail("unexpected argument '" + cl.positional().front() + "'");
    if (!cl.ok())
        return usageError("evaluate", cl.error());
    try {
        const Seq2SeqModel model = Seq2SeqModel::load(cl.text("model"));
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
        const DecodeMode mode = cl.flag("batched") ? DecodeMode::Batched : DecodeMode::OneAtATime;
        printReport(evaluate(model, data, mode), examples, mode);
    } catch (const CheckpointError &e) {
        return failure(e.what());
    } catch (const DatasetError &e) {
        return failure(e.what());
    }
    return 0;
}

std::string helpText()
{
    return R"(AttnScope: train a GRU seq2seq model with attention to reverse sentences, and look inside it.

Usage:
  attnscope                      open the desktop app (needs a display)
  attnscope train --out DIR [options]
  attnscope reverse --model FILE [--json] [--heatmap OUT.png] [--no-unk-replace]
                    [--beam K] [--alpha A] [--nbest N] "a sentence"
  attnscope evaluate --model FILE [--corpus FILE] [--examples N] [--batched]
  attnscope compare --out DIR [--attention LIST] [--probe-max-len N] [--probe N] [train options]
  attnscope bench [--threads N] [--json OUT] [--quick]
  attnscope --help

train writes DIR/model.ckpt (best epoch by validation loss), metrics.json, examples.txt,
attention_heatmap.png and analysis.md.

compare trains one model per attention variant in --attention LIST (comma-separated; default
bahdanau,luong-dot,luong-general,none) one after another, on the same data and seed, and tests
each on the test split and on probe sentences of every length from --min-len to --probe-max-len
(default 20; --probe N sentences, default 2000, seed --data-seed + 1). It writes
DIR/comparison.json (per variant: test exact match and token accuracy, exact match by probe
length, epochs, seconds, parameters), DIR/comparison.png (exact match by length, trained lengths
shaded) and DIR/<variant>.ckpt. It takes the train options except --corpus.

reverse decodes greedily; --beam K (1-64) keeps the K best hypotheses per step instead, ranked
at the end by score = log P / length^A (--alpha A, 0-2, default 0.6: 0 favours short outputs, 1
is the mean log-probability per token), and --nbest N (1-K) lists the N best under the output
(--json: "nbest" and "beam_steps", the hypotheses kept at each step). The heatmap is the best's.

bench trains the default model and measures training samples/s (median over epochs after a
warm-up), wall time to 99% test exact match, greedy and beam-5 latency for one 10-word sentence,
the GUI's worst event-loop stall while the app trains (offscreen window, a sentence typed every
150 ms) and peak memory; --json OUT also writes the figures as JSON, --quick measures fewer epochs.

Dataset options (train):
  --task reverse|copy      what the output is (default reverse)
  --words-file FILE        words for generated sentences (default: the 34 reference words)
  --corpus FILE            sentences from FILE, one per line, instead of generated ones
  --min-len N --max-len N  sentence length in words (default 3 and 10; corpus lines outside are skipped)
  --train N --val N --test N   generated split sizes (default 8000 1000 1000)
  --data-seed N            seed for the data (default: --seed)
  --keep-case              do not lower-case input
Model options:
  --embed N (128)  --hidden N (256)  --layers N (2)  --dropout X (0.1)
  --bidirectional (default) | --no-bidirectional
  --attention bahdanau|luong-dot|luong-general|none (default bahdanau)
      bahdanau: additive, scored with the decoder state before its GRU step; luong-dot and
      luong-general: multiplicative (s.h, s.W h), scored with the state after the step, with
      Luong's attentional layer and input feeding; none: the decoder sees only the encoder's
      final state (no heatmap, no <UNK> copying)
Training options:
  --lr X (2e-3)  --lr-decay X (0.5: the rate is multiplied by X after an epoch that does not
                 improve validation loss; 1 = constant)
  --lr-epoch-decay X (0.5: the rate is multiplied by X after every epoch; 1 = constant)
  --batch N (128)  --epochs N (30)  --teacher-forcing X (1.0)  --clip X (1.0, 0 = off)
  --patience N (5, 0 = never stop early)  --seed N (42)  --threads N (0 = all cores)
  --unk-rate X (0.02: share of training words shown as <UNK>, so unknown words are copied)
  --weight-decay X (0)

Exit codes: 0 success, 1 failure while running, 2 bad options.
)";
}
