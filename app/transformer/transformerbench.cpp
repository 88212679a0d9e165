#include "app/transformer/transformerbench.h"

#include "app/core/attributionbench.h"
#include "app/core/benchfigures.h"
#include "app/core/commandline.h"
#include "app/core/helpformat.h"
#include "app/core/jsonreport.h"
#include "engine/core/corpusdefaults.h"
#include "engine/core/dataset.h"
#include "engine/core/elapsed.h"
#include "engine/core/trainingfields.h"
#include "engine/core/vocabulary.h"
#include "engine/transformer/transformerattribution.h"
#include "engine/transformer/transformermodel.h"
#include "engine/transformer/transformertrainer.h"
#include "engine/transformer/transformertrainingconfig.h"

#include <QJsonArray>

#include <chrono>
#include <cstdio>
#include <cstdlib>

using namespace benchfigures;

namespace {

struct Accuracy {
    std::vector<double> samplesPerSecond;  // every epoch's
    std::vector<double> testExactMatch;    // after every epoch, with that epoch's weights
    bool reached = false;
    int epoch = 0;
    double wallSeconds = 0;  // training, validation and the test evaluations, from the start
};

Accuracy train(TransformerModel &model, const Dataset &data, const TransformerTrainingConfig &training)
{
    Accuracy result;
    const auto start = std::chrono::steady_clock::now();
    TransformerTrainer::Callbacks callbacks;
    callbacks.onEpoch = [&](const EpochStats &stats, bool) {
        const double exact = model.score(data.test).exactMatch();
        const double wall = secondsSince(start);
        result.samplesPerSecond.push_back(stats.samplesPerSecond);
        result.testExactMatch.push_back(exact);
        std::printf("  epoch %d: %.0f samples/s, validation exact match %.2f%%, test %.2f%% after %.1f s\n",
                    stats.epoch, stats.samplesPerSecond, 100.0 * stats.valExactMatch, 100.0 * exact, wall);
        std::fflush(stdout);
        if (exact >= kTargetExactMatch && !result.reached) {
            result.reached = true;
            result.epoch = stats.epoch;
            result.wallSeconds = wall;
        }
    };
    TransformerTrainer(model, data, training).run(callbacks);
    return result;
}

}  // namespace

std::string transformerBenchHelp()
{
    return "Usage: attnscope bench --architecture transformer [--threads N] [--json OUT] [training options]\n\n"
           "Trains the default Transformer (2 + 2 pre-LN layers, 4 heads, d_model 128, feed-forward 512) on the\n"
           "default task (8,000 generated sentences of 3-10 words, reversed) and measures training samples/s (the\n"
           "median of the epochs after the first), the wall time until the test exact match first reaches 99%\n"
           "(the test split decoded after every epoch, as the reference does), the test exact match of the best\n"
           "epoch, the greedy latency of one 10-word sentence on the app's path (500 calls after 50), and what\n"
           "explaining that sentence costs by each attribution method (15 calls after 3).\n"
           "Compare with ../shared/bench/transformer_reference.py: tests/bench/compare_transformer.sh.\n\n" +
           optionLine("--json OUT", "Also write every figure to OUT as JSON, with the RNN bench's keys.") +
           "\nTraining options (the lab's; --threads defaults to 2 here):\n" +
           fieldLines(transformerTrainingConfigFields(), {{"threads", "2"}});
}

int runTransformerBench(const std::vector<std::string> &arguments)
{
    CommandLine cl({"json"}, {});
    cl.addFields(transformerTrainingConfigFields());
    cl.parse(arguments);
    TransformerTrainingConfig training;
    training.threads = 2;
    cl.readFields(training, transformerTrainingConfigFields());
    const int threads = resolvedThreads(training.threads);
    training.threads = threads;
    const int epochs = training.epochs;
    if (!cl.positional().empty())
        cl.fail("unexpected argument '" + cl.positional().front() + "'");
    if (!cl.ok())
        return usageError("bench --architecture transformer", cl.error());

    const DatasetConfig dataConfig;
    const Dataset data = Dataset::build(dataConfig);
    const SentencePair *sentence = sentenceOfLength(data.test, kLatencyWords);
    if (!sentence)
        return failure("the test set has no sentence of " + std::to_string(kLatencyWords) + " words");
    TransformerModel model(TransformerConfig{}, vocabularyFor(data, dataConfig), dataConfig.task, training.seed);
    const char *waitPolicy = std::getenv("OMP_WAIT_POLICY");
    std::printf("bench: default Transformer (%lld parameters), %zu training sentences, batch %d, %d threads, "
                "OMP_WAIT_POLICY=%s\n",
                static_cast<long long>(model.parameterCount()), data.train.size(), training.batchSize, threads,
                waitPolicy ? waitPolicy : "(unset)");
    std::fflush(stdout);

    const Accuracy accuracy = train(model, data, training);
    const TransformerScore test = model.score(data.test);
    const std::vector<double> measured(accuracy.samplesPerSecond.begin() + (epochs > 1 ? 1 : 0),
                                       accuracy.samplesPerSecond.end());
    const double samplesPerSecond = medianOrZero(measured);
    std::vector<std::string> expected = sentence->target;
    expected.push_back(model.vocabulary().word(Vocabulary::kEos));
    const Latency greedy = timeCalls([&] { return model.decode(sentence->source).outputTokens == expected; });
    const std::vector<AttributionCost> attribution = measureAttributionCost(
        [&](const AttributionOptions &options) -> ExplainedSentence {
            return attributeTransformer(model, sentence->source, options);
        },
        transformerAttributionMethods(), kLatencyWords);

    std::printf("\n");
    printRow("training samples/s (median, epochs 2+)", format("%.0f", samplesPerSecond));
    printRow("time to 99% test exact match, wall",
             accuracy.reached ? format("%.2f s (epoch %.0f)", accuracy.wallSeconds, accuracy.epoch) : "not reached");
    printRow("test exact match, best epoch", format("%.2f %% (%.2f %% of the words)", 100.0 * test.exactMatch(),
                                                    100.0 * test.tokenAccuracy()));
    printRow("greedy latency, 10 words (with attention)",
             format("%.3f ms median, %.3f ms p99", medianOrZero(greedy.ms), percentile99(greedy.ms)));
    printAttributionCost(attribution);
    printRow("peak memory", format("%.0f MiB", peakRssMiB()));

    QJsonArray epochSamples, exactByEpoch;
    for (double v : accuracy.samplesPerSecond)
        epochSamples.append(v);
    for (double v : accuracy.testExactMatch)
        exactByEpoch.append(v);
    const QJsonObject root{
        {"architecture", "transformer"},
        {"threads", threads},
        {"omp_wait_policy", waitPolicy ? waitPolicy : ""},
        {"batch", training.batchSize},
        {"parameters", double(model.parameterCount())},
        {"train_samples_per_s", QJsonObject{{"median", samplesPerSecond}, {"warmup_epochs", epochs > 1 ? 1 : 0},
                                            {"epochs", epochSamples}}},
        {"time_to_acc", QJsonObject{{"target", kTargetExactMatch},
                                    {"reached", accuracy.reached},
                                    {"epoch", accuracy.epoch},
                                    {"wall_s", accuracy.reached ? QJsonValue(accuracy.wallSeconds) : QJsonValue()},
                                    {"test_exact_by_epoch", exactByEpoch}}},
        {"test_exact_match", test.exactMatch()},
        {"test_token_accuracy", test.tokenAccuracy()},
        {"greedy_latency", latencyJson(greedy)},
        {"attribution", attributionCostJson(attribution)},
        {"peak_rss_mib", peakRssMiB()},
    };
    return writeJsonReport(cl.has("json") ? cl.text("json") : std::string(), root);
}
