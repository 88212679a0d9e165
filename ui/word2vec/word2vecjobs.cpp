#include "ui/word2vec/word2vecjobs.h"

#include "engine/core/epochstats.h"
#include "engine/word2vec/word2vectrainer.h"
#include "engine/word2vec/wordmap.h"
#include "ui/word2vec/word2vecresults.h"

#include <QCoreApplication>
#include <QLocale>

#include <chrono>

namespace {

// Each epoch is cut into this many steps for the status bar's batch count.
constexpr int kStepsPerEpoch = 1000;
constexpr std::chrono::milliseconds kSnapshotEvery(500);

QString trWord2VecJobs(const char *text)
{
    return QCoreApplication::translate("Word2VecJobs", text);
}

}

LabJob word2vecTrainingJob(std::shared_ptr<const WordCorpus> corpus, const CorpusConfig &corpusConfig,
                           const Word2VecConfig &config)
{
    return [corpus, corpusConfig, config](JobContext &context) {
        if (!corpus)
            throw std::invalid_argument("there is no corpus to train on");
        Word2VecTrainer trainer(*corpus, corpusConfig, config);
        const QLocale locale;
        context.started(config.epochs, trWord2VecJobs("words"),
                        trWord2VecJobs("Training %1 vectors of %2 dimensions on %3 words (%4).")
                            .arg(locale.toString(corpus->vocabularySize()))
                            .arg(config.dimensions)
                            .arg(locale.toString(qlonglong(corpus->tokens.size())),
                                 config.architecture == Word2VecArchitecture::Cbow ? trWord2VecJobs("CBOW") : trWord2VecJobs("skip-gram")));

        EmbeddingProjection previous;
        auto snapshot = [&](int epoch, double progress) {
            auto vectors = std::make_shared<const WordVectors>(trainer.vectors());
            EmbeddingProjection map =
                projectWordMap(*vectors, kWordMapFitWords, previous.words.empty() ? nullptr : &previous);
            previous = map;
            context.report(Word2VecSnapshot{vectors, std::move(map), epoch, progress});
        };
        auto lastSnapshot = std::chrono::steady_clock::now();
        snapshot(0, 0);  // the random start, so people see where the words began
        Word2VecTrainer::Callbacks callbacks;
        callbacks.onProgress = [&](const Word2VecProgress &p) {
            const double perEpoch = double(p.wordsTotal) / std::max(1, p.epochs);
            const double inEpoch = double(p.wordsDone) - perEpoch * (p.epoch - 1);
            BatchProgress batch;
            batch.epoch = p.epoch;
            batch.batchesPerEpoch = kStepsPerEpoch;
            batch.batch = std::clamp(int(inEpoch / perEpoch * kStepsPerEpoch), 1, kStepsPerEpoch);
            batch.loss = p.loss;
            batch.samplesPerSecond = p.wordsPerSecond;
            context.batch(batch);  // waits here while the user pauses
            const auto now = std::chrono::steady_clock::now();
            if (now - lastSnapshot >= kSnapshotEvery && !context.cancelled()) {
                snapshot(p.epoch, double(p.wordsDone) / double(std::max<int64_t>(1, p.wordsTotal)));
                lastSnapshot = std::chrono::steady_clock::now();
            }
        };
        callbacks.onEpoch = [&context](const Word2VecEpoch &e) { context.report(Word2VecEpochDone{e}); };
        const std::vector<Word2VecEpoch> epochs = trainer.train(callbacks, context.stopFlag());
        if (context.cancelled())
            return;
        snapshot(int(epochs.size()), double(epochs.size()) / config.epochs);
        double seconds = 0;
        for (const Word2VecEpoch &e : epochs)
            seconds += e.seconds;
        context.report(Word2VecFinished{int(epochs.size()), config.epochs,
                                        seconds > 0 ? double(corpus->tokens.size()) * double(epochs.size()) / seconds : 0});
    };
}
