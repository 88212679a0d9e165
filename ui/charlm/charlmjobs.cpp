#include "ui/charlm/charlmjobs.h"

#include "engine/charlm/charsampling.h"
#include "engine/charlm/chartext.h"
#include "engine/charlm/chartrainer.h"
#include "engine/core/epochstats.h"

#include <QCoreApplication>
#include <QLocale>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace {

// The units are ranked on this many characters from the text's start: enough for lines, quotes and
// brackets to come and go, and read out in a fraction of a second.
constexpr int64_t kRankingCharacters = 3000;
constexpr int kRankedUnits = 40;

QString trCharLmJobs(const char *text)
{
    return QCoreApplication::translate("CharLmJobs", text);
}

CharUnitsRanked rankedUnits(std::shared_ptr<const CharInferenceNet> net, const CharText &text)
{
    const std::u32string stretch = text.text.substr(0, size_t(kRankingCharacters));
    const CharReadout readout = readOut(*net, stretch, 1);
    return {std::move(net), rankUnits(readout, kRankedUnits), int64_t(stretch.size())};
}

}

LabJob charTrainingJob(std::shared_ptr<const CharText> text, const CharModelConfig &model,
                       const CharTrainingConfig &training, const CharProbeSettings &probes)
{
    return [text, model, training, probes](JobContext &context) {
        if (!text)
            throw std::invalid_argument("There is no text to train on.");
        context.report(CharBaselineReady{ngramBaseline(*text)});
        CharTrainer trainer(*text, model, training);
        const QLocale locale;
        context.started(training.epochs, trCharLmJobs("characters"),
                        trCharLmJobs("Training a %1 of %2 units × %3 (%4 parameters) on %5 characters.")
                            .arg(QString::fromLatin1(cellName(model.cell)).toUpper())
                            .arg(model.hidden)
                            .arg(model.layers == 1 ? trCharLmJobs("1 layer") : trCharLmJobs("%1 layers").arg(model.layers))
                            .arg(locale.toString(qlonglong(charModelParameterCount(model, text->alphabetSize()))),
                                 locale.toString(qlonglong(text->trainLength))));

        double lossSum = 0;
        int lossCount = 0;
        int64_t lastProbe = -1;
        std::shared_ptr<const CharInferenceNet> latest;
        auto probe = [&](int64_t iteration, double epochPosition) {
            auto net = std::make_shared<const CharInferenceNet>(trainer.weights());
            SamplingOptions options;
            options.temperature = probes.temperature;
            options.length = probes.length;
            options.prime = text->text.substr(0, 1);
            options.seed = training.seed + uint64_t(iteration);
            SampledText sample = sampleText(*net, options);
            CharProbe report;
            report.iteration = iteration;
            report.epochPosition = epochPosition;
            if (lossCount > 0)
                report.bitsPerChar = lossSum / lossCount;
            report.prime = std::move(sample.prime);
            report.sample = std::move(sample.generated);
            report.memorisedLimit = memorisationLimit(*text);
            report.memorisedWholeText = report.memorisedLimit == text->trainLength - 1;
            report.memorised = memorisationMeter(*net, *text);
            report.net = net;
            latest = std::move(net);
            context.report(report);
            lossSum = 0;
            lossCount = 0;
            lastProbe = iteration;
        };
        probe(0, 0);  // the untrained model: where the text starts from

        CharProgress last;
        auto position = [](const CharProgress &p) {
            return p.epoch - 1 + double(p.window) / double(std::max<int64_t>(1, p.windowsPerEpoch));
        };
        CharTrainer::Callbacks callbacks;
        callbacks.onWindow = [&](const CharProgress &p) {
            last = p;
            if (std::isfinite(p.bitsPerChar)) {
                lossSum += p.bitsPerChar;
                ++lossCount;
            }
            BatchProgress batch;
            batch.epoch = p.epoch;
            batch.batch = int(p.window);
            batch.batchesPerEpoch = int(p.windowsPerEpoch);
            batch.loss = p.bitsPerChar;
            batch.samplesPerSecond = p.charsPerSecond;
            context.batch(batch);  // waits here while the user pauses
            if (p.iteration % probes.every == 0 && !context.cancelled())
                probe(p.iteration, position(p));
        };
        callbacks.onEpoch = [&context](const CharEpoch &e) { context.report(CharEpochDone{e}); };
        const std::vector<CharEpoch> epochs = trainer.train(callbacks, context.stopFlag());
        if (context.cancelled())
            return;
        if (last.iteration > lastProbe)
            probe(last.iteration, position(last));
        double seconds = 0;
        double characters = 0;
        for (const CharEpoch &e : epochs) {
            seconds += e.seconds;
            characters += e.charsPerSecond * e.seconds;
        }
        context.report(CharTrainingFinished{int(epochs.size()), training.epochs, seconds > 0 ? characters / seconds : 0});
        context.report(rankedUnits(latest, *text));  // the weights the views show last
    };
}

LabJob charUnitRankingJob(std::shared_ptr<const CharInferenceNet> net, std::shared_ptr<const CharText> text)
{
    return [net, text](JobContext &context) {
        if (!net || !text)
            throw std::invalid_argument("There is no model or no text to rank the units on.");
        context.report(rankedUnits(net, *text));
    };
}

LabJob charAttributionJob(const CharAttributionRequest &request)
{
    return [request](JobContext &context) {
        CharAttributionReady ready;
        ready.request = request.id;
        try {
            if (!request.net)
                throw std::invalid_argument("There is no model to explain: train one or open one.");
            ready.attribution = explainNextCharacter(request.net->weights(), request.context, request.options);
        } catch (const std::exception &e) {
            ready.error = e.what();
        }
        context.report(ready);
    };
}
