#include "app/attention/bench.h"

#include "app/attention/decodelatency.h"
#include "app/attention/corpusbench.h"
#include "app/attention/runfiles.h"
#include "app/core/attributionbench.h"
#include "app/core/commandline.h"
#include "app/workbench/eventlooplateness.h"
#include "app/workbench/labmodule.h"
#include "app/workbench/loadbench.h"
#include "app/workbench/startupbench.h"
#include "app/workbench/trainingcontroller.h"
#include "app/workbench/trainingworker.h"
#include "engine/attention/attribution.h"
#include "engine/attention/evaluation.h"
#include "engine/attention/seq2seqmodel.h"
#include "engine/attention/seq2seqnet.h"
#include "engine/attention/trainer.h"
#include "engine/core/batch.h"
#include "engine/core/corpusdefaults.h"
#include "engine/core/dataset.h"
#include "engine/core/elapsed.h"
#include "engine/core/runtime.h"
#include "engine/core/trainingfields.h"
#include "ui/attention/attentionlab.h"
#include "ui/attention/inferencepanel.h"
#include "ui/workbench/mainwindow.h"

#include <QDir>
#include <QEventLoop>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>
#include <QTimer>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>

using namespace benchfigures;

namespace {

using Clock = std::chrono::steady_clock;

// The first test sentence of 10 words is timed: a fixed amount of work, 11 decoder steps, whatever
// the model predicts.
constexpr int kLatencySteps = kLatencyWords + 1;  // words + <EOS>
constexpr int kKeystrokeMs = 150;  // a typist's pace: each keystroke decodes on the GUI thread

struct Plan {
    int threads = 0;
    int warmupEpochs = 1;
    int measuredEpochs = 5;
    int maxAccuracyEpochs = 20;
    int guiEpochs = 2;
    double maxAccuracySeconds = 300;
};

struct Throughput {
    std::vector<double> samplesPerSecond;  // measured epochs only
};

struct TimeToAccuracy {
    bool reached = false;
    int epoch = 0;
    double wallSeconds = 0;       // training + validation + test evaluation, from the start
    std::vector<double> exactMatch;  // test exact match after each epoch
};

struct GuiStall {
    std::vector<double> lateMs;  // sorted
    double seconds = 0;
};


TrainingConfig trainingConfig(const Plan &plan, int epochs)
{
    TrainingConfig t;
    t.threads = plan.threads;
    t.epochs = epochs;
    t.patience = 0;  // the cap decides when to stop, not the validation loss
    return t;
}

Throughput measureThroughput(const Dataset &data, const Vocabulary &vocabulary, const Plan &plan)
{
    Seq2SeqModel model(ModelConfig{}, vocabulary, TrainingConfig{}.seed);
    Trainer trainer(model, data, trainingConfig(plan, plan.warmupEpochs + plan.measuredEpochs));
    Throughput result;
    Trainer::Callbacks callbacks;
    callbacks.onEpoch = [&](const EpochStats &e, bool) {
        std::printf("  throughput epoch %d: %.0f samples/s%s\n", e.epoch, e.samplesPerSecond,
                    e.epoch <= plan.warmupEpochs ? " (warm-up)" : "");
        std::fflush(stdout);
        if (e.epoch > plan.warmupEpochs)
            result.samplesPerSecond.push_back(e.samplesPerSecond);
    };
    trainer.run(callbacks);
    return result;
}

TimeToAccuracy measureTimeToAccuracy(const Dataset &data, const Plan &plan, Seq2SeqModel *model)
{
    TimeToAccuracy result;
    std::atomic<bool> stop{false};
    const auto start = Clock::now();
    Trainer trainer(*model, data, trainingConfig(plan, plan.maxAccuracyEpochs));
    Trainer::Callbacks callbacks;
    callbacks.onEpoch = [&](const EpochStats &e, bool) {
        // Batched greedy decoding of the whole test set, as reference.py does every epoch.
        const double exact = evaluate(*model, data.test, DecodeMode::Batched).exactMatch;
        const double wall = secondsSince(start);
        result.exactMatch.push_back(exact);
        std::printf("  accuracy epoch %d: test exact match %.2f%% after %.1f s\n", e.epoch, 100.0 * exact, wall);
        std::fflush(stdout);
        if (exact >= kTargetExactMatch && !result.reached) {
            result.reached = true;
            result.epoch = e.epoch;
            result.wallSeconds = wall;
        }
        if (result.reached || wall > plan.maxAccuracySeconds)
            stop = true;
    };
    trainer.run(callbacks, &stop);
    return result;
}

// The app itself (window, training thread, plots) trains for `epochs` while a timer on the GUI
// thread records how late it fires and a sentence is typed into the Reverse tab keystroke by
// keystroke, each decoded with the latest weights. From the training request until the worker
// is idle again (the test-split evaluation after training and its report included).
GuiStall measureGuiStall(const DatasetConfig &datasetConfig, const Plan &plan, int epochs, const std::string &sentence)
{
    QStandardPaths::setTestModeEnabled(true);  // the window's settings are not the user's
    MainWindow window;
    addRegisteredLabs(&window);
    TrainingController controller(&window);
    auto *lab = window.lab<AttentionLab>();
    window.showLab(lab);
    {
        // Opening the window scores the bundled model; its report is drawn before training starts.
        QEventLoop settle;
        QObject::connect(controller.worker(), &TrainingWorker::idle, &settle, &QEventLoop::quit);
        QTimer::singleShot(10000, &settle, &QEventLoop::quit);
        window.show();
        if (lab->loadBundledModel())
            settle.exec();
    }
    QEventLoop loop;
    bool trained = false;  // the bundled model's own evaluation ends in idle() too
    QObject::connect(controller.worker(), &TrainingWorker::reported, [&](quint64, const QVariant &result) {
        trained = trained || result.metaType() == QMetaType::fromType<TrainingFinished>();
    });
    QObject::connect(controller.worker(), &TrainingWorker::idle, [&](quint64) {
        if (trained)
            loop.quit();
    });
    QTimer typing;
    int typed = 0;
    QObject::connect(&typing, &QTimer::timeout, [&] {
        typed = typed % int(sentence.size()) + 1;
        lab->inferencePanel()->setText(QString::fromStdString(sentence.substr(0, std::size_t(typed))));
    });
    EventLoopLateness lateness(kTickMs);
    TrainingConfig training = trainingConfig(plan, epochs);
    const auto start = Clock::now();
    lateness.start();
    typing.start(kKeystrokeMs);
    lab->trainWith(datasetConfig, ModelConfig{}, training);
    loop.exec();
    lateness.stop();
    typing.stop();
    GuiStall result;
    result.seconds = secondsSince(start);
    result.lateMs = lateness.lateness();
    std::sort(result.lateMs.begin(), result.lateMs.end());
    controller.shutdown();
    return result;
}

Latency measureGreedyLatency(const Seq2SeqModel &model, const SentencePair &sentence)
{
    std::vector<int> ids;
    for (const auto &w : sentence.source)
        ids.push_back(model.vocabulary().id(w));
    const Batch batch = makeSourceBatch({ids});
    Seq2SeqNet &net = model.net();
    torch::InferenceMode inference;
    net->eval();
    GreedyOutput out;
    for (int i = 0; i < kLatencyWarmup; ++i)
        out = net->greedy(batch.source, batch.sourceLengths, kLatencySteps, /*stopAtEos=*/false);
    Latency result;
    for (int i = 0; i < kLatencyCalls; ++i) {
        const auto start = Clock::now();
        out = net->greedy(batch.source, batch.sourceLengths, kLatencySteps, /*stopAtEos=*/false);
        result.ms.push_back(1e3 * secondsSince(start));
    }
    std::sort(result.ms.begin(), result.ms.end());
    std::vector<int> expected;
    for (const auto &w : sentence.target)
        expected.push_back(model.vocabulary().id(w));
    expected.push_back(Vocabulary::kEos);
    const auto tokens = out.tokens.accessor<int64_t, 2>();
    result.outputCorrect = true;
    for (std::size_t t = 0; t < expected.size(); ++t)
        result.outputCorrect = result.outputCorrect && tokens[0][int64_t(t)] == expected[t];
    return result;
}


}

int runBench(const std::vector<std::string> &arguments)
{
    CommandLine cl(arguments, {"threads", "json", "corpus"}, {"quick", "load", "startup"});
    Plan plan;
    plan.threads = cl.integer("threads", 0, 0, 1024);
    const bool quick = cl.flag("quick");
    if (quick) {
        plan.measuredEpochs = 2;
        plan.maxAccuracyEpochs = 8;
        plan.maxAccuracySeconds = 90;
        plan.guiEpochs = 1;
    }
    if (!cl.positional().empty())
        cl.fail("unexpected argument '" + cl.positional().front() + "'");
    if (int(cl.has("corpus")) + int(cl.flag("load")) + int(cl.flag("startup")) > 1)
        cl.fail("give one of --corpus FILE, --load and --startup");
    if (cl.flag("load") && cl.has("threads"))
        cl.fail("--load trains every lab on its own defaults: --threads does not apply");
    if (cl.flag("startup") && cl.has("threads"))
        cl.fail("--startup launches the app as it is: --threads does not apply");
    // Found out now rather than after minutes of measuring.
    if (cl.has("json") && !QFileInfo(QString::fromStdString(cl.text("json"))).absoluteDir().exists())
        cl.fail("--json: the folder of '" + cl.text("json") + "' does not exist");
    if (!cl.ok())
        return usageError("bench", cl.error());
    if (cl.flag("startup"))
        return runStartupBench(quick ? 3 : 7, cl.has("json") ? cl.text("json") : "");
    if (cl.flag("load"))
        return runLoadBench(quick ? 1 : 3, quick ? 10 : 20, cl.has("json") ? cl.text("json") : "");
    const int threads = resolvedThreads(plan.threads);
    if (cl.has("corpus"))
        return runCorpusBench(cl.text("corpus"), threads, plan.measuredEpochs, cl.has("json") ? cl.text("json") : "");
    const char *waitPolicy = std::getenv("OMP_WAIT_POLICY");

    const DatasetConfig datasetConfig;
    const Dataset data = Dataset::build(datasetConfig);
    const Vocabulary vocabulary = vocabularyFor(data, datasetConfig);
    const SentencePair *sentence = sentenceOfLength(data.test, kLatencyWords);
    if (!sentence) {
        std::cerr << "error: the test set has no sentence of " << kLatencyWords << " words\n";
        return 1;
    }
    std::printf("bench: default model, %zu training sentences, batch %d, %d threads, OMP_WAIT_POLICY=%s%s\n",
                data.train.size(), TrainingConfig{}.batchSize, threads, waitPolicy ? waitPolicy : "(unset)",
                quick ? ", quick" : "");
    std::fflush(stdout);

    const Throughput throughput = measureThroughput(data, vocabulary, plan);
    Seq2SeqModel model(ModelConfig{}, vocabulary, TrainingConfig{}.seed);
    model.datasetConfig = datasetConfig;
    const TimeToAccuracy accuracy = measureTimeToAccuracy(data, plan, &model);
    Latency greedy, decode, beam;
    std::vector<AttributionCost> attribution;
    {
        // The decodes as --threads asks. Not the app below: its window's thread keeps LibTorch's
        // default of one, as it does when the app runs, and training sets its own.
        const runtime::IntraOpThreads decodeThreads(threads);
        greedy = measureGreedyLatency(model, *sentence);
        decode = measureDecodeLatency(model, *sentence, BeamOptions{});
        BeamOptions beam5;
        beam5.width = 5;
        beam = measureDecodeLatency(model, *sentence, beam5);
        attribution = measureAttributionCost(
            [&](const AttributionOptions &options) -> ExplainedSentence { return attribute(model, sentence->source, options); },
            allAttributionMethods(), int(sentence->source.size()));
    }
    std::string typedSentence;
    for (const auto &w : sentence->source)
        typedSentence += (typedSentence.empty() ? "" : " ") + w;
    std::printf("  GUI: training %d epoch(s) in the app while typing...\n", plan.guiEpochs);
    std::fflush(stdout);
    const GuiStall stall = measureGuiStall(datasetConfig, plan, plan.guiEpochs, typedSentence);
    const double peakMiB = peakRssMiB();

    const auto &sps = throughput.samplesPerSecond;
    const double spsMedian = medianOrZero(sps);
    std::printf("\n");
    printRow("figure (" + std::to_string(threads) + " threads)", "AttnScope");
    printRow("training samples/s (median of " + std::to_string(sps.size()) + " epochs)",
             format("%.0f (range %.0f-%.0f)", spsMedian, *std::min_element(sps.begin(), sps.end()),
                    *std::max_element(sps.begin(), sps.end())));
    printRow("time to 99% test exact match, wall",
             accuracy.reached ? format("%.1f s (epoch %.0f)", accuracy.wallSeconds, accuracy.epoch)
                              : format("not reached in %.0f epochs (best %.2f%%)", double(accuracy.exactMatch.size()),
                                       100.0 * *std::max_element(accuracy.exactMatch.begin(), accuracy.exactMatch.end())));
    printRow("greedy latency, 10 words, 11 steps",
             format("%.3f ms median, %.3f ms p99", medianOrZero(greedy.ms), percentile99(greedy.ms)));
    printRow("decode() of that sentence, end to end",
             format("%.3f ms median, %.3f ms p99", medianOrZero(decode.ms), percentile99(decode.ms)));
    printRow("beam-5 decode of that sentence (alpha 0.6)",
             format("%.3f ms median, %.3f ms p99", medianOrZero(beam.ms), percentile99(beam.ms)));
    printAttributionCost(attribution);
    printRow("GUI event loop while training, worst stall",
             format("%.1f ms late (p99 %.1f ms, %.0f ticks of 10 ms)", stall.lateMs.empty() ? 0.0 : stall.lateMs.back(),
                    percentile99(stall.lateMs), double(stall.lateMs.size())));
    printRow("peak memory (VmHWM)", format("%.0f MiB", peakMiB));

    if (cl.has("json")) {
        QJsonArray epochs, exact;
        for (double v : sps)
            epochs.append(v);
        for (double v : accuracy.exactMatch)
            exact.append(v);
        const QJsonObject root{
            {"threads", threads},
            {"omp_wait_policy", waitPolicy ? waitPolicy : ""},
            {"quick", quick},
            {"train_samples_per_s", QJsonObject{{"median", spsMedian},
                                                {"warmup_epochs", plan.warmupEpochs},
                                                {"epochs", epochs}}},
            {"time_to_acc", QJsonObject{{"target", kTargetExactMatch},
                                        {"reached", accuracy.reached},
                                        {"epoch", accuracy.epoch},
                                        {"wall_s", accuracy.reached ? QJsonValue(accuracy.wallSeconds) : QJsonValue()},
                                        {"test_exact_by_epoch", exact}}},
            {"greedy_latency", latencyJson(greedy)},
            {"decode_latency", latencyJson(decode)},
            {"beam5_latency", latencyJson(beam)},
            {"attribution", attributionCostJson(attribution)},
            {"gui_stall", QJsonObject{{"tick_ms", kTickMs},
                                      {"keystroke_ms", kKeystrokeMs},
                                      {"epochs", plan.guiEpochs},
                                      {"seconds", stall.seconds},
                                      {"ticks", int(stall.lateMs.size())},
                                      {"worst_late_ms", stall.lateMs.empty() ? 0.0 : stall.lateMs.back()},
                                      {"p99_late_ms", percentile99(stall.lateMs)},
                                      {"median_late_ms", medianOrZero(stall.lateMs)}}},
            {"peak_rss_mib", peakMiB},
        };
        QString error;
        if (!runfiles::writeText(QString::fromStdString(cl.text("json")),
                                 QJsonDocument(root).toJson().toStdString(), &error)) {
            std::cerr << "error: " << error.toStdString() << "\n";
            return 1;
        }
    }
    return 0;
}
