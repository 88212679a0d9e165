#include "app/charlm/charlmcommands.h"

#include "app/charlm/charlmoptions.h"
#include "app/core/commandline.h"
#include "app/core/interruptscope.h"
#include "app/core/runfolder.h"
#include "engine/charlm/charcheckpoint.h"
#include "engine/charlm/charinferencenet.h"
#include "engine/charlm/charsampling.h"
#include "engine/charlm/chartrainer.h"
#include "engine/charlm/ngrambaseline.h"
#include "engine/core/atomicfile.h"
#include "engine/core/elapsed.h"
#include "engine/core/plaintext.h"
#include "ui/core/configmap.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <random>
#include <stdexcept>

namespace {

using Clock = std::chrono::steady_clock;

// kMaxCharTextLength characters of up to four UTF-8 bytes each; buildCharText counts the characters.
constexpr std::size_t kMaxTextBytes = std::size_t(kMaxCharTextLength) * 4;
constexpr double kProgressSeconds = 5;           // within a long epoch, a progress line at most this often
constexpr int kAlphabetShown = 60;               // characters of an alphabet quoted in a message
double perplexity(double bitsPerChar)
{
    return std::exp2(bitsPerChar);
}

std::string grouped(int64_t n)
{
    std::string digits = std::to_string(n);
    for (int i = int(digits.size()) - 3; i > 0; i -= 3)
        digits.insert(std::size_t(i), ",");
    return digits;
}

// An alphabet as a message quotes it: control characters escaped, a long one cut short.
std::string quotedAlphabet(const std::u32string &alphabet)
{
    std::string out;
    for (std::size_t i = 0; i < std::min<std::size_t>(alphabet.size(), kAlphabetShown); ++i) {
        const char32_t c = alphabet[i];
        out += c == U'\n' ? "\\n" : c == U'\t' ? "\\t" : c < 0x20 ? "?" : encodeUtf8(c);
    }
    return "\"" + out + (alphabet.size() > kAlphabetShown ? "\"..." : "\"");
}

template <typename Known>
bool knowsAny(const std::u32string &prime, Known idOf)
{
    return std::any_of(prime.begin(), prime.end(), [&idOf](char32_t c) { return idOf(c) >= 0; });
}

std::string samplesText(const CharInferenceNet &net, const std::u32string &prime, uint64_t seed)
{
    std::string out;
    for (double temperature : kSampleTemperatures) {
        SamplingOptions options;
        options.temperature = temperature;
        options.prime = prime;
        options.length = kSampleCharacters;
        options.seed = seed;
        const SampledText sample = sampleText(net, options);
        char heading[48];
        std::snprintf(heading, sizeof heading, "== temperature %.1f ==\n", temperature);
        out += heading + encodeUtf8(sample.prime + sample.generated) + "\n\n";
    }
    return out;
}

// "1 stream", "32 streams"
std::string counted(int64_t n, const std::string &noun)
{
    return grouped(n) + " " + noun + (n == 1 ? "" : "s");
}

void printCounts(const std::string &file, const CharTextPreview &p)
{
    std::printf("%s: %s characters, %d distinct | %s to train, %s to validate | %s of %s characters, %s an epoch | "
                "%s parameters\n",
                file.c_str(), grouped(p.characters).c_str(), p.alphabet, grouped(p.trainCharacters).c_str(),
                grouped(p.validationCharacters).c_str(), counted(p.streams.streams, "stream").c_str(),
                grouped(p.streams.streamLength).c_str(), counted(p.streams.windowsPerEpoch, "window").c_str(),
                grouped(p.parameters).c_str());
    if (!p.validationNote.empty())
        std::printf("%s\n", p.validationNote.c_str());
    std::fflush(stdout);  // the warnings follow the counts they are about
    for (const std::string &warning : p.warnings)
        std::fprintf(stderr, "warning: %s\n", warning.c_str());
}

void printBaseline(const NgramBaseline &b)
{
    std::printf("n-gram baseline (add-k %g, measured on the %s):", b.addK,
                b.onTraining ? "training text: no validation tail" : "validation tail");
    for (std::size_t i = 0; i < b.bitsPerChar.size(); ++i)
        std::printf("%s order %zu %.3f", i == 0 ? "" : " |", i + 1, b.bitsPerChar[i]);
    std::printf(" bits/char; best order %d: %.3f bits/char (perplexity %.2f)\n", b.bestOrder, b.best(),
                perplexity(b.best()));
}

void printEpoch(const CharEpoch &e, int epochs, int64_t memorised)
{
    char validation[64] = "val -";
    if (!std::isnan(e.validationBitsPerChar))
        std::snprintf(validation, sizeof validation, "val %.3f (perplexity %.2f)", e.validationBitsPerChar,
                      perplexity(e.validationBitsPerChar));
    std::printf("epoch %3d/%d | train %.3f bits/char (perplexity %.2f) | %s | %s chars/s | %.2f s | memorised %lld\n",
                e.epoch, epochs, e.trainBitsPerChar, perplexity(e.trainBitsPerChar), validation,
                grouped(std::llround(e.charsPerSecond)).c_str(), e.seconds, static_cast<long long>(memorised));
    std::fflush(stdout);
}

QJsonValue numberOrNull(double v)
{
    return std::isnan(v) ? QJsonValue() : QJsonValue(v);
}

QJsonObject baselineJson(const NgramBaseline &b)
{
    QJsonArray orders;
    for (std::size_t i = 0; i < b.bitsPerChar.size(); ++i)
        orders.append(QJsonObject{{"order", int(i + 1)},
                                  {"bits_per_char", b.bitsPerChar[i]},
                                  {"perplexity", perplexity(b.bitsPerChar[i])}});
    return {{"add_k", b.addK},
            {"measured_on", b.onTraining ? "training" : "validation"},
            {"orders", orders},
            {"best_order", b.bestOrder},
            {"best_bits_per_char", b.best()},
            {"best_perplexity", perplexity(b.best())}};
}

QJsonObject epochJson(const CharEpoch &e, int64_t memorised)
{
    return {{"epoch", e.epoch},
            {"iteration", double(e.iteration)},
            {"train_bits_per_char", e.trainBitsPerChar},
            {"train_perplexity", perplexity(e.trainBitsPerChar)},
            {"validation_bits_per_char", numberOrNull(e.validationBitsPerChar)},
            {"validation_perplexity", numberOrNull(perplexity(e.validationBitsPerChar))},
            {"seconds", e.seconds},
            {"chars_per_s", e.charsPerSecond},
            {"memorised_length", double(memorised)}};
}

// As charlm_reference.py --latency computes them from the sorted times.
double sortedMedian(const std::vector<double> &sorted)
{
    return sorted[sorted.size() / 2];
}

double sortedP99(const std::vector<double> &sorted)
{
    return sorted[std::size_t(std::max(0, int(double(sorted.size()) * 0.99) - 1))];
}

// Times each of `characters` draws after the prime, as charlm_reference.py --latency does: the
// distribution from the logits, one draw, the step that reads the drawn character (batch 1, the
// state carried). Milliseconds, sorted.
std::vector<double> samplingLatency(const CharInferenceNet &net, const SamplingOptions &options, int characters)
{
    CharInferenceNet::State state = net.start();
    std::vector<float> logits(std::size_t(net.alphabetSize()));
    for (char32_t c : options.prime)
        if (net.idOf(c) >= 0)
            net.step(net.idOf(c), state, logits.data());
    std::mt19937_64 random(options.seed);
    std::vector<double> ms;
    ms.reserve(std::size_t(characters));
    for (int i = 0; i < characters; ++i) {
        const Clock::time_point start = Clock::now();
        const std::vector<double> p =
            samplingDistribution(logits.data(), net.alphabetSize(), options.temperature, options.topK);
        const int next = std::discrete_distribution<int>(p.begin(), p.end())(random);
        net.step(next, state, logits.data());
        ms.push_back(1e3 * secondsSince(start));
    }
    std::sort(ms.begin(), ms.end());
    return ms;
}

// Where generate starts without --prime: the start of a line, as texts begin, when the model has one.
std::u32string defaultPrime(const CharInferenceNet &net)
{
    for (char32_t c : {U'\n', U' '})
        if (net.idOf(c) >= 0)
            return std::u32string(1, c);
    return net.alphabet().substr(0, 1);
}

QJsonObject sampleJson(const SampledText &s, const SamplingOptions &options)
{
    QJsonArray characters;
    double entropy = 0;
    for (std::size_t i = 0; i < s.generated.size(); ++i) {
        characters.append(QJsonObject{{"character", QString::fromStdString(encodeUtf8(s.generated[i]))},
                                      {"probability", s.probabilities[i]},
                                      {"entropy_bits", s.entropyBits[i]}});
        entropy += s.entropyBits[i];
    }
    QJsonObject json = toJson(options, generateFields());
    json.insert("prime", QString::fromStdString(encodeUtf8(s.prime)));
    json.insert("generated", QString::fromStdString(encodeUtf8(s.generated)));
    json.insert("mean_entropy_bits", s.generated.empty() ? 0.0 : entropy / double(s.generated.size()));
    json.insert("characters", characters);
    return json;
}

}

int runCharLm(const std::vector<std::string> &arguments)
{
    if (!arguments.empty() && arguments.front() == "explain")
        return runCharExplain({arguments.begin() + 1, arguments.end()});
    CommandLine cl({"text", "out", "prime"}, {});
    cl.addFields(charModelFields());
    cl.addFields(charTrainingFields());
    cl.parse(arguments);
    CharModelConfig model;
    CharTrainingConfig training;
    cl.readFields(model, charModelFields());
    cl.readFields(training, charTrainingFields());
    if (cl.ok() && (!cl.has("text") || !cl.has("out")))
        cl.fail("--text FILE and --out DIR are required");
    if (cl.ok() && !cl.positional().empty())
        cl.fail("unexpected argument '" + cl.positional().front() + "'");
    if (cl.ok() && cl.has("prime") && cl.text("prime").empty())
        cl.fail("--prime needs at least one character");
    if (!cl.ok())
        return usageError("charlm", cl.error());

    // Everything that can be refused is read before the output folder exists.
    const std::string textFile = cl.text("text");
    CharText text;
    {
        std::string bytes;
        try {
            bytes = readWholeFile(textFile, kMaxTextBytes);  // its messages name the file
        } catch (const std::exception &e) {
            return failure(e.what());
        }
        try {
            text = buildCharText(bytes, training.val, training.seqLen);
        } catch (const std::invalid_argument &e) {
            return failure(textFile + ": " + e.what());
        }
    }
    const std::u32string prime =
        cl.has("prime") ? decodeUtf8(cl.text("prime")) : text.text.substr(0, std::size_t(kPrimeCharacters));
    if (!knowsAny(prime, [&text](char32_t c) { return text.idOf(c); }))
        return failure("--prime \"" + cl.text("prime") + "\" has no character of the text's alphabet " +
                       quotedAlphabet(text.alphabet) + ": there is nothing to start the samples from");
    std::unique_ptr<CharTrainer> trainer;
    try {
        trainer = std::make_unique<CharTrainer>(text, model, training);
    } catch (const std::invalid_argument &e) {
        return failure(textFile + ": " + e.what());
    }
    RunFolder folder(cl.text("out"));
    if (std::string problem; !folder.create(&problem))
        return failure(problem);
    const auto file = [&folder](const char *name) { return folder.file(name).toStdString(); };
    // A run that ends with nothing written takes back the folder it made.
    const auto abandon = [&](const std::string &message) {
        folder.abandon();
        return failure(message);
    };

    const CharTextPreview preview = previewCharText(text, model, training);
    printCounts(textFile, preview);
    const NgramBaseline baseline = ngramBaseline(text);
    printBaseline(baseline);

    std::vector<int64_t> memorised;
    Clock::time_point lastProgress = Clock::now();
    CharTrainer::Callbacks callbacks;
    callbacks.onWindow = [&lastProgress](const CharProgress &p) {
        if (p.window == p.windowsPerEpoch || secondsSince(lastProgress) < kProgressSeconds)
            return;
        lastProgress = Clock::now();
        std::fprintf(stderr, "  epoch %d/%d: window %lld/%lld | %.3f bits/char | %s chars/s\n", p.epoch, p.epochs,
                     static_cast<long long>(p.window), static_cast<long long>(p.windowsPerEpoch), p.bitsPerChar,
                     grouped(std::llround(p.charsPerSecond)).c_str());
    };
    callbacks.onEpoch = [&](const CharEpoch &e) {
        const CharInferenceNet net(trainer->weights());
        memorised.push_back(memorisationMeter(net, text));
        printEpoch(e, training.epochs, memorised.back());
        lastProgress = Clock::now();
    };
    const InterruptScope interrupt;
    std::vector<CharEpoch> epochs;
    try {
        epochs = trainer->train(callbacks, interrupt.flag());
    } catch (const std::exception &e) {
        return abandon(std::string("training failed: ") + e.what() + "; nothing written");
    }
    if (epochs.empty())
        return abandon("interrupted before the first epoch ended: nothing written");
    if (interrupt.interrupted())
        std::printf("interrupted: writing the model as it is, after %zu of %d epochs\n", epochs.size(),
                    training.epochs);

    const CharWeights weights = trainer->weights();
    std::string samples;
    try {
        samples = samplesText(CharInferenceNet(weights), prime, training.seed);
    } catch (const std::invalid_argument &e) {
        return abandon(e.what());
    }
    double seconds = 0, trained = 0;
    QJsonArray epochArray;
    for (std::size_t i = 0; i < epochs.size(); ++i) {
        seconds += epochs[i].seconds;
        trained += epochs[i].charsPerSecond * epochs[i].seconds;
        epochArray.append(epochJson(epochs[i], memorised.at(i)));
    }
    const QJsonObject metrics{
        {"model_config", toJson(model, charModelFields())},
        {"training_config", toJson(training, charTrainingFields())},
        {"text", QJsonObject{{"file", QString::fromStdString(textFile)},
                             {"characters", double(preview.characters)},
                             {"alphabet", preview.alphabet},
                             {"train_characters", double(preview.trainCharacters)},
                             {"validation_characters", double(preview.validationCharacters)},
                             {"validation_note", QString::fromStdString(preview.validationNote)},
                             {"streams", preview.streams.streams},
                             {"windows_per_epoch", double(preview.streams.windowsPerEpoch)}}},
        {"parameters", double(preview.parameters)},
        {"ngram_baseline", baselineJson(baseline)},
        {"memorisation_limit", double(memorisationLimit(text))},
        {"epochs", epochArray},
        {"epochs_completed", int(epochs.size())},
        {"interrupted", interrupt.interrupted()},
        {"train_s", seconds},
        {"chars_per_s", trained / seconds},
    };
    try {
        saveCharCheckpoint(file("model.ckpt"), CharCheckpoint{weights, training, epochs});
        writeFileAtomically(file("samples.txt"), samples);
    } catch (const std::exception &e) {
        return failure(e.what());
    }
    if (QString error; !folder.writeMetrics(metrics, &error))
        return failure(error.toStdString());
    std::printf("%s chars/s over %zu epochs (%.2f s); wrote model.ckpt, metrics.json, samples.txt in %s\n",
                grouped(std::llround(trained / seconds)).c_str(), epochs.size(), seconds, folder.path().c_str());
    return 0;
}

int runGenerate(const std::vector<std::string> &arguments)
{
    CommandLine cl({"model", "prime", "latency"}, {"json"});
    cl.addFields(generateFields());
    cl.parse(arguments);
    SamplingOptions options;
    cl.readFields(options, generateFields());
    const int latency = cl.integer("latency", 0, 1, kMaxSampleLength);
    if (cl.ok() && !cl.has("model"))
        cl.fail("--model FILE is required");
    if (cl.ok() && !cl.positional().empty())
        cl.fail("unexpected argument '" + cl.positional().front() + "' (the prime goes after --prime)");
    if (cl.ok() && cl.has("prime") && cl.text("prime").empty())
        cl.fail("--prime needs at least one character");
    if (cl.ok() && cl.has("latency") && cl.flag("json"))
        cl.fail("--latency prints timings instead of a sample: leave out --json");
    if (!cl.ok())
        return usageError("generate", cl.error());

    const std::string modelFile = cl.text("model");
    CharCheckpoint checkpoint;
    try {
        checkpoint = loadCharCheckpoint(modelFile);  // its messages name the file
    } catch (const std::exception &e) {
        return failure(e.what());
    }
    std::unique_ptr<CharInferenceNet> net;
    try {
        net = std::make_unique<CharInferenceNet>(checkpoint.weights);
    } catch (const std::invalid_argument &e) {
        return failure(modelFile + ": " + e.what());
    }
    options.prime = cl.has("prime") ? decodeUtf8(cl.text("prime")) : defaultPrime(*net);
    if (!knowsAny(options.prime, [&net](char32_t c) { return net->idOf(c); }))
        return failure("--prime \"" + cl.text("prime") + "\" has no character of the model's alphabet " +
                       quotedAlphabet(net->alphabet()) + ": there is nothing to start from");

    if (latency > 0) {
        const std::vector<double> ms = samplingLatency(*net, options, latency);
        std::printf("sampling one character: %.4f ms median, %.4f ms p99 (%d characters, batch 1, state carried)\n",
                    sortedMedian(ms), sortedP99(ms), latency);
        std::printf("JSON %s\n", QJsonDocument(QJsonObject{{"kind", "latency"},
                                                           {"chars", latency},
                                                           {"median_ms", sortedMedian(ms)},
                                                           {"p99_ms", sortedP99(ms)}})
                                     .toJson(QJsonDocument::Compact)
                                     .constData());
        return 0;
    }
    SampledText sample;
    try {
        sample = sampleText(*net, options);
    } catch (const std::invalid_argument &e) {
        return failure(e.what());
    }
    if (sample.prime.size() < options.prime.size())
        std::fprintf(stderr, "warning: %zu characters of the prime are not in the model's alphabet and were left out\n",
                     options.prime.size() - sample.prime.size());
    if (cl.flag("json"))
        std::cout << QJsonDocument(sampleJson(sample, options)).toJson(QJsonDocument::Indented).toStdString();
    else
        std::cout << encodeUtf8(sample.prime + sample.generated) << "\n";
    return 0;
}
