#include "app/attention/corpusbench.h"

#include "app/attention/decodelatency.h"
#include "app/attention/runfiles.h"
#include "app/core/commandline.h"
#include "engine/attention/evaluation.h"
#include "engine/attention/seq2seqmodel.h"
#include "engine/attention/seq2seqnet.h"
#include "engine/attention/trainer.h"
#include "engine/core/dataset.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <algorithm>
#include <cstdio>
#include <iostream>

using namespace benchfigures;

namespace {

// The first test sentence of the median test length: a typical sentence of this text.
const SentencePair *typicalSentence(const std::vector<SentencePair> &test)
{
    std::vector<std::size_t> lengths;
    for (const SentencePair &p : test)
        lengths.push_back(p.source.size());
    if (lengths.empty())
        return nullptr;
    std::nth_element(lengths.begin(), lengths.begin() + std::ptrdiff_t(lengths.size() / 2), lengths.end());
    const std::size_t middle = lengths[lengths.size() / 2];
    for (const SentencePair &p : test)
        if (p.source.size() == middle)
            return &p;
    return nullptr;
}

}

int runCorpusBench(const std::string &path, int threads, int measuredEpochs, const std::string &jsonPath)
{
    DatasetConfig datasetConfig;
    datasetConfig.corpusPath = path;
    Dataset data;
    try {
        data = Dataset::build(datasetConfig);
    } catch (const DatasetError &e) {
        std::cerr << "error: " << e.what() << "\n";
        return 1;
    }
    TrainingConfig training;
    training.threads = threads;
    training.epochs = 1 + measuredEpochs;
    training.patience = 0;
    Seq2SeqModel model = Seq2SeqModel::forDataset(ModelConfig{}, data, datasetConfig, training.seed);
    const Decoder &decoder = model.net()->decoder;
    const int64_t outputLayer = decoder->out->weight.numel() + decoder->out->bias.numel();
    const int64_t embeddings = decoder->embedding->weight.numel() + model.net()->encoder->embedding->weight.numel();
    const int64_t parameters = model.parameterCount();
    std::printf("bench --corpus %s: %zu training sentences, vocabulary %d, pointer %s, %lld parameters "
                "(output layer %.0f%%, embeddings %.0f%%), %d threads\n",
                path.c_str(), data.train.size(), model.vocabulary().size(), model.config().usesPointer() ? "on" : "off",
                static_cast<long long>(parameters), 100.0 * double(outputLayer) / double(parameters),
                100.0 * double(embeddings) / double(parameters), threads);
    std::fflush(stdout);

    std::vector<double> samplesPerSecond;
    Trainer::Callbacks callbacks;
    callbacks.onEpoch = [&](const EpochStats &e, bool) {
        std::printf("  epoch %d: %.0f samples/s, validation exact match %.2f%%%s\n", e.epoch, e.samplesPerSecond,
                    100.0 * e.valExactMatch, e.epoch == 1 ? " (warm-up)" : "");
        std::fflush(stdout);
        if (e.epoch > 1)
            samplesPerSecond.push_back(e.samplesPerSecond);
    };
    Trainer(model, data, training).run(callbacks);
    const SentencePair *sentence = typicalSentence(data.test);
    if (!sentence) {
        std::cerr << "error: the corpus left no test sentence\n";
        return 1;
    }
    const Latency greedy = measureDecodeLatency(model, *sentence, BeamOptions{});
    BeamOptions beam5;
    beam5.width = 5;
    const Latency beam = measureDecodeLatency(model, *sentence, beam5);
    const double peakMiB = peakRssMiB();

    const double spsMedian = medianOrZero(samplesPerSecond);
    const double words = double(sentence->source.size());
    std::printf("\n");
    printRow("figure (" + std::to_string(threads) + " threads)", "AttnScope");
    printRow("training samples/s (median of " + std::to_string(samplesPerSecond.size()) + " epochs)",
             format("%.0f", spsMedian));
    printRow(format("decode(), greedy, %.0f words", words),
             format("%.3f ms median, %.3f ms p99", medianOrZero(greedy.ms), percentile99(greedy.ms)));
    printRow(format("beam-5 decode, %.0f words", words),
             format("%.3f ms median, %.3f ms p99", medianOrZero(beam.ms), percentile99(beam.ms)));
    printRow("peak memory (VmHWM)", format("%.0f MiB", peakMiB));

    if (!jsonPath.empty()) {
        QJsonArray epochs;
        for (double v : samplesPerSecond)
            epochs.append(v);
        const QJsonObject root{
            {"corpus", QString::fromStdString(path)},
            {"threads", threads},
            {"train_sentences", int(data.train.size())},
            {"vocabulary_size", model.vocabulary().size()},
            {"pointer", model.config().usesPointer()},
            {"parameters", double(parameters)},
            {"output_layer_parameters", double(outputLayer)},
            {"embedding_parameters", double(embeddings)},
            {"train_samples_per_s", QJsonObject{{"median", spsMedian}, {"warmup_epochs", 1}, {"epochs", epochs}}},
            {"latency_sentence_words", int(words)},
            {"greedy_latency", latencyJson(greedy)},
            {"beam5_latency", latencyJson(beam)},
            {"peak_rss_mib", peakMiB},
        };
        QString error;
        if (!runfiles::writeText(QString::fromStdString(jsonPath), QJsonDocument(root).toJson().toStdString(), &error)) {
            std::cerr << "error: " << error.toStdString() << "\n";
            return 1;
        }
    }
    return 0;
}
