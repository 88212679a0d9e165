#include "app/transformer/transformercommands.h"

#include "app/core/commandline.h"
#include "app/core/epochline.h"
#include "app/core/interruptscope.h"
#include "app/core/runfolder.h"
#include "app/transformer/transformercommandmodel.h"
#include "app/transformer/transformerreport.h"
#include "app/transformer/transformerrun.h"
#include "app/transformer/transformerrunfiles.h"
#include "app/transformer/transformerrunoptions.h"
#include "engine/core/corpusdefaults.h"
#include "engine/core/dataset.h"
#include "engine/core/tokenizer.h"
#include "engine/transformer/transformercheckpoint.h"
#include "ui/core/plotexport.h"

#include <QJsonDocument>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <stdexcept>

namespace {

constexpr int kExamplesShown = 10;

// "2 + 2 layers, 4 heads, d_model 128, sinusoidal positions, pre-LN".
std::string modelShapeText(const TransformerConfig &c)
{
    return std::to_string(c.layers) + " + " + std::to_string(c.layers) + " layers, " + std::to_string(c.heads) +
           " heads, d_model " + std::to_string(c.modelSize) + ", " +
           (c.positions == PositionEncoding::Learned ? "learned" : "sinusoidal") + " positions, " +
           (c.preNorm ? "pre-LN" : "post-LN");
}

// The n-best list under the best output, for a person reading it, as the RNN's reverse prints it.
void printTransformerNBest(const TransformerBeamOutput &decoded, const BeamOptions &beam)
{
    std::printf("n-best (beam %d, alpha %g; score = log P / length^alpha):\n", beam.width, beam.alpha);
    for (std::size_t i = 0; i < decoded.nbest.size(); ++i) {
        const ScoredTransformerOutput &h = decoded.nbest[i];
        const std::vector<std::string> &tokens = h.output.outputTokens;
        const bool ended = !tokens.empty() && tokens.back() == "<EOS>";
        std::printf("%3zu. score %8.4f  log P %8.4f  %s%s\n", i + 1, h.score, h.logProb, outputText(h.output).c_str(),
                    ended ? "" : "  (no <EOS>: maximum length)");
    }
}

bool writeText(const RunFolder &folder, const std::string &name, const std::string &text, QString *error)
{
    return writeFileAtomically(folder.file(name), QByteArray::fromStdString(text), error);
}

}  // namespace

int runTransformerTrain(const std::vector<std::string> &arguments)
{
    CommandLine cl({}, {});
    addTransformerRunOptions(cl);
    cl.parse(arguments);
    const TransformerRunOptions options = readTransformerRunOptions(cl);
    if (!cl.ok())
        return usageError("train --architecture transformer", cl.error());
    const DatasetConfig &d = options.dataset;
    const TransformerTrainingConfig &t = options.training;
    Dataset data;
    try {
        data = Dataset::build(d);
    } catch (const DatasetError &e) {
        return failure(e.what());
    }
    if (const std::string problem = positionsProblem(options.model, data.maxLength); !problem.empty())
        return usageError("train --architecture transformer", problem);
    RunFolder folder(options.out);
    if (std::string problem; !folder.create(&problem))
        return failure(problem);
    TransformerModel model(options.model, vocabularyFor(data, d), d.task, t.seed);
    std::printf("task %s | %zu train / %zu val / %zu test sentences, lengths %d-%d | vocabulary %d | Transformer %s "
                "| %lld parameters\n",
                taskName(d.task), data.train.size(), data.val.size(), data.test.size(), d.minLength, data.maxLength,
                model.vocabulary().size(), modelShapeText(model.config()).c_str(),
                static_cast<long long>(model.parameterCount()));
    if (data.fromCorpus)
        std::printf("corpus: skipped %d blank, %d longer and %d shorter lines\n", data.skippedBlank,
                    data.skippedTooLong, data.skippedTooShort);
    std::fflush(stdout);

    const InterruptScope interrupt;
    std::vector<BatchProgress> batches;
    TransformerTrainer::Callbacks callbacks;
    callbacks.onBatch = [&](const BatchProgress &progress) { batches.push_back(progress); };
    callbacks.onEpoch = [&](const EpochStats &e, bool best) {
        const EpochStats *previous = model.history.size() >= 2 ? &model.history[model.history.size() - 2] : nullptr;
        std::printf("%s\n", epochLine(e, best, {}, previous).c_str());
        std::fflush(stdout);
    };
    TransformerRunEnd end;
    try {
        end = trainTransformer(model, data, t, callbacks, interrupt.flag());
    } catch (const std::invalid_argument &e) {
        folder.abandon();
        return failure(e.what());
    }
    std::cout << end.message << "\n";
    if (end.bestEpoch == 0) {
        folder.abandon();
        return failure("no epoch completed, so there is no model to evaluate");
    }
    try {
        saveTransformerCheckpoint(folder.file("model.ckpt").toStdString(), model, d, t);
    } catch (const TransformerCheckpointError &e) {
        return failure(e.what());
    }

    const TransformerScore test = model.score(data.test);
    std::string examples;
    std::cout << "\n";
    for (std::size_t i = 0; i < data.test.size(); ++i) {
        const std::string line = exampleLine(model, data.test[i]) + "\n";
        examples += line;
        if (i < std::size_t(kExamplesShown))
            std::cout << line;
    }
    std::cout << "\n" << scoreText("Test", test);

    QString error;
    if (!folder.writeMetrics(transformerrunfiles::metricsJson(model, data, d, t, end, test), &error) ||
        !writeText(folder, "loss_curve.csv", transformerrunfiles::lossCurveCsv(batches), &error) ||
        !writeText(folder, "examples.txt", examples, &error))
        return failure(error.toStdString());
    std::cout << "\nWrote model.ckpt, metrics.json, loss_curve.csv and examples.txt to " << folder.path() << "\n";
    return end.status == TransformerRunEnd::Status::Diverged ? 1 : 0;
}

int runTransformerReverse(const std::vector<std::string> &arguments)
{
    CommandLine cl(arguments, {"model", "beam", "alpha", "nbest"}, {"json"});
    BeamOptions beam;
    beam.width = cl.integer("beam", beam.width, 1, kMaxBeamWidth);
    beam.alpha = cl.number("alpha", beam.alpha, 0.0, kMaxLengthAlpha);
    beam.nbest = cl.integer("nbest", beam.nbest, 1, kMaxBeamWidth);
    if (cl.positional().size() != 1)
        cl.fail("give exactly one sentence (quote it): attnscope reverse --architecture transformer --model FILE "
                "\"the cat sat\"");
    else if (cl.ok() && beam.nbest > beam.width)
        cl.fail("--nbest " + std::to_string(beam.nbest) + " is more than the beam keeps (--beam " +
                std::to_string(beam.width) + ")");
    else if (!cl.has("model"))
        cl.fail("--model FILE is required: no Transformer is bundled (train one with attnscope train --architecture "
                "transformer --out DIR)");
    if (!cl.ok())
        return usageError("reverse --architecture transformer", cl.error());
    try {
        const TransformerCheckpoint checkpoint = checkpointToUse(cl);
        const TransformerModel &model = checkpoint.model;
        std::vector<std::string> words = tokenize(cl.positional().front(), checkpoint.dataset.lowercase);
        const int longest = longestSentence(model.config());
        const bool truncated = int(words.size()) > longest;
        if (truncated) {
            words.resize(std::size_t(longest));
            std::cerr << "note: the input was cut to its first " << longest << " tokens (the model's positions reach "
                      << model.config().maxPositions << ")\n";
        }
        const bool searchBeam = beam.width > 1 || beam.nbest > 1;
        TransformerBeamOutput decoded;
        if (searchBeam) {
            decoded = model.beamDecode(words, beam);
            if (decoded.nbest.empty())
                return failure("the model gave no finite scores (is it damaged?)");
        }
        const TransformerOutput output = searchBeam ? decoded.nbest.front().output : model.decode(words);
        if (cl.flag("json")) {
            std::vector<bool> known;
            for (const std::string &word : words)
                known.push_back(model.vocabulary().contains(word));
            known.push_back(true);  // <EOS>
            std::cout << (searchBeam ? transformerrunfiles::beamJson(decoded, beam, model.vocabulary(), known, truncated)
                                     : transformerrunfiles::decodedJson(output, known, truncated))
                             .toStdString();
        } else {
            std::cout << outputText(output) << "\n";
            if (searchBeam)
                printTransformerNBest(decoded, beam);
        }
    } catch (const TransformerCheckpointError &e) {
        return failure(e.what());
    }
    return 0;
}

int runTransformerEvaluate(const std::vector<std::string> &arguments)
{
    CommandLine cl(arguments, {"model", "corpus", "examples", "probe-max-len", "probe"}, {"json"});
    const int examples = cl.integer("examples", kExamplesShown, 0, 1000000);
    const int probeCount = cl.integer("probe", kProbeSentences, 1, 1000000);
    const bool probing = cl.has("probe-max-len") || cl.has("probe");
    if (!cl.positional().empty())
        cl.fail("unexpected argument '" + cl.positional().front() + "'");
    else if (!cl.has("model"))
        cl.fail("--model FILE is required: no Transformer is bundled (train one with attnscope train --architecture "
                "transformer --out DIR)");
    else if (probing && cl.has("corpus"))
        cl.fail("--probe-max-len and --probe score generated sentences; --corpus scores a file's: give one or the "
                "other");
    if (!cl.ok())
        return usageError("evaluate --architecture transformer", cl.error());
    try {
        const TransformerCheckpoint checkpoint = checkpointToUse(cl);
        const TransformerModel &model = checkpoint.model;
        DatasetConfig d = checkpoint.dataset;
        int probeMaxLength = 0;
        if (probing) {
            if (!d.corpusPath.empty())
                return usageError("evaluate --architecture transformer", "this model was trained on a corpus: there is no word list to generate "
                                              "probe sentences from");
            const int longest = longestProbe(model.config());
            probeMaxLength = cl.integer("probe-max-len", defaultProbeMaxLength(model.config(), generatedMaxLength(d)),
                                        1, kLongestSentence);
            if (cl.ok() && probeMaxLength > longest)
                cl.fail("--probe-max-len " + std::to_string(probeMaxLength) + " is past what this model reaches: " +
                        std::to_string(longest) + " words (its --max-positions " +
                        std::to_string(model.config().maxPositions) + " less 2)");
            else if (cl.ok() && probeMaxLength < d.minLength)
                cl.fail("--probe-max-len " + std::to_string(probeMaxLength) + " is below the trained minimum length " +
                        std::to_string(d.minLength));
            if (!cl.ok())
                return usageError("evaluate --architecture transformer", cl.error());
        }
        std::vector<SentencePair> sentences;
        if (cl.has("corpus")) {
            d.corpusPath = cl.text("corpus");
            Dataset all = Dataset::build(d);
            for (auto *split : {&all.train, &all.val, &all.test})
                sentences.insert(sentences.end(), split->begin(), split->end());
        } else {
            sentences = Dataset::build(d).test;
        }
        const int tooLong = int(std::count_if(sentences.begin(), sentences.end(), [&](const SentencePair &pair) {
            return int(pair.source.size()) > longestSentence(model.config());
        }));
        if (tooLong > 0)
            return failure(std::to_string(tooLong) + " sentences are longer than this model's positions reach (" +
                           std::to_string(longestSentence(model.config())) + " words)");
        const TransformerScore test = model.score(sentences);
        TransformerScore probe;
        if (probing)
            probe = model.score(probeSet(d, probeMaxLength, probeCount));
        if (cl.flag("json")) {
            QJsonObject root{{"architecture", "transformer"}, {"test", transformerrunfiles::scoreJson(test)}};
            if (probing) {
                QJsonObject probeJson = transformerrunfiles::scoreJson(probe);
                probeJson.insert("min_len", d.minLength);
                probeJson.insert("max_len", probeMaxLength);
                probeJson.insert("trained_max_len", generatedMaxLength(d));
                probeJson.insert("seed", double(d.seed + 1));
                root.insert("probe", probeJson);
            }
            std::cout << QJsonDocument(root).toJson(QJsonDocument::Indented).toStdString();
            return 0;
        }
        for (int i = 0; i < std::min(examples, int(sentences.size())); ++i)
            std::cout << exampleLine(model, sentences[std::size_t(i)]) << "\n";
        std::cout << "\n" << scoreText("Test", test);
        if (probing)
            std::cout << "\nProbe: " << probe.sentences << " generated sentences of " << d.minLength << "-"
                      << probeMaxLength << " words (trained on " << d.minLength << "-" << generatedMaxLength(d)
                      << "; * = beyond)\n"
                      << scoreText("Probe", probe, generatedMaxLength(d));
    } catch (const TransformerCheckpointError &e) {
        return failure(e.what());
    } catch (const DatasetError &e) {
        return failure(e.what());
    }
    return 0;
}
