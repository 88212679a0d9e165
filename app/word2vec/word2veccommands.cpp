#include "app/word2vec/word2veccommands.h"

#include "app/core/commandline.h"
#include "app/core/interruptscope.h"
#include "app/core/runfolder.h"
#include "engine/core/atomicfile.h"
#include "engine/core/embeddingprojection.h"
#include "engine/word2vec/vectorqueries.h"
#include "engine/word2vec/word2vectrainer.h"
#include "engine/word2vec/wordevaluation.h"
#include "engine/word2vec/wordmap.h"
#include "ui/core/configmap.h"
#include "ui/core/embeddingplot.h"
#include "ui/core/plotexport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cstdio>
#include <iostream>
#include <stdexcept>

namespace {

constexpr std::size_t kMaxCorpusBytes = std::size_t(2) << 30;
constexpr std::size_t kMaxQuestionBytes = std::size_t(64) << 20;
constexpr int kMapWords = 100;        // pca.png: the most frequent words
constexpr int kNeighbourWords = 50;   // neighbours.txt: the most frequent words ...
constexpr int kNeighbours = 10;       // ... each with this many nearest

std::string neighboursText(const VectorIndex &index, int words)
{
    std::string out;
    char score[32];
    for (int w = 0; w < std::min(words, index.size()); ++w) {
        out += index.word(w) + ":";
        for (const ScoredWord &n : index.nearest(w, kNeighbours)) {
            std::snprintf(score, sizeof score, "%.3f", n.score);
            out += " " + n.word + " (" + score + ")";
        }
        out += "\n";
    }
    return out;
}

QJsonObject analogyJson(const AnalogyResult &r)
{
    QJsonArray sections;
    for (const AnalogySection &s : r.sections)
        sections.append(QJsonObject{{"name", QString::fromStdString(s.name)}, {"asked", s.asked}, {"right", s.right}});
    return {{"asked", r.asked}, {"right", r.right}, {"skipped", r.skipped},
            {"accuracy", r.asked ? QJsonValue(r.accuracy()) : QJsonValue()}, {"sections", sections}};
}

// A vectors file and the words asked of it: the index, or a message and exit code.
struct LoadedQuery {
    std::unique_ptr<VectorIndex> index;
    std::vector<int> words;
    int exitCode = 0;
};

LoadedQuery loadQuery(const std::string &command, CommandLine &cl, const std::vector<std::string> &arguments,
                      std::size_t wordsWanted)
{
    LoadedQuery q;
    cl.parse(arguments);
    if (cl.ok() && !cl.has("vectors"))
        cl.fail("--vectors FILE is required");
    if (cl.ok() && wordsWanted > 0 && cl.positional().size() != wordsWanted)
        cl.fail("expects exactly " + std::to_string(wordsWanted) + " words, a b c (got " +
                std::to_string(cl.positional().size()) + ")");
    if (cl.ok() && cl.positional().empty())
        cl.fail("name at least one word");
    if (!cl.ok()) {
        q.exitCode = usageError(command, cl.error());
        return q;
    }
    try {
        q.index = std::make_unique<VectorIndex>(readWord2Vec(cl.text("vectors")));
    } catch (const std::exception &e) {
        q.exitCode = failure(cl.text("vectors") + ": " + e.what());
        return q;
    }
    for (const std::string &word : cl.positional()) {
        const int i = q.index->index(word);
        if (i < 0) {
            q.exitCode = failure("\"" + word + "\" is not in the vocabulary of " + cl.text("vectors") + " (" +
                                 std::to_string(q.index->size()) + " words)");
            return q;
        }
        q.words.push_back(i);
    }
    return q;
}

void printScored(const std::vector<ScoredWord> &words)
{
    for (const ScoredWord &w : words)
        std::printf("  %-20s %.4f\n", w.word.c_str(), w.score);
}

}

int runWord2Vec(const std::vector<std::string> &arguments)
{
    CommandLine cl({"corpus", "out", "analogies", "similarity"}, {});
    cl.addFields(corpusFields());
    cl.addFields(word2vecFields());
    cl.parse(arguments);
    CorpusConfig corpusConfig;
    Word2VecConfig config;
    cl.readFields(corpusConfig, corpusFields());
    cl.readFields(config, word2vecFields());
    if (cl.ok() && (!cl.has("corpus") || !cl.has("out")))
        cl.fail("--corpus FILE and --out DIR are required");
    if (cl.ok() && !cl.positional().empty())
        cl.fail("unexpected argument '" + cl.positional().front() + "'");
    if (!cl.ok())
        return usageError("word2vec", cl.error());

    // Everything that can be refused is read before the output folder exists.
    std::string analogies, similarity;
    std::unique_ptr<WordCorpus> corpus;
    try {
        if (cl.has("analogies"))
            analogies = readWholeFile(cl.text("analogies"), kMaxQuestionBytes);
        if (cl.has("similarity"))
            similarity = readWholeFile(cl.text("similarity"), kMaxQuestionBytes);
        corpus = std::make_unique<WordCorpus>(buildWordCorpus(readWholeFile(cl.text("corpus"), kMaxCorpusBytes),
                                                              corpusConfig));
    } catch (const std::exception &e) {
        return failure(e.what());
    }
    std::unique_ptr<Word2VecTrainer> trainer;
    try {
        trainer = std::make_unique<Word2VecTrainer>(*corpus, corpusConfig, config);
    } catch (const std::invalid_argument &e) {
        return failure(e.what());
    }
    RunFolder folder(cl.text("out"));
    if (std::string problem; !folder.create(&problem))
        return failure(problem);
    const auto file = [&folder](const char *name) { return folder.file(name); };

    const CorpusPreview preview = previewCorpus(*corpus, corpusConfig, config);
    std::fprintf(stderr, "%s | %lld words, %d in the vocabulary (%lld tokens kept) | %lld parameters\n",
                 config.architecture == Word2VecArchitecture::Cbow ? "cbow" : "skip-gram", static_cast<long long>(preview.rawTokens), preview.vocabulary,
                 static_cast<long long>(preview.keptTokens), static_cast<long long>(preview.parameters));
    for (const std::string &warning : preview.warnings)
        std::fprintf(stderr, "warning: %s\n", warning.c_str());

    const InterruptScope interrupt;
    Word2VecTrainer::Callbacks callbacks;
    callbacks.onEpoch = [&config](const Word2VecEpoch &e) {
        std::fprintf(stderr, "epoch %3d/%d | loss %.4f | %.0f words/s | %.1f s\n", e.epoch, config.epochs, e.loss,
                     e.wordsPerSecond, e.seconds);
    };
    const std::vector<Word2VecEpoch> epochs = trainer->train(callbacks, interrupt.flag());
    if (epochs.empty()) {
        folder.abandon();
        return failure("interrupted before the first epoch ended: nothing written");
    }

    const WordVectors vectors = trainer->vectors();
    const VectorIndex index(vectors);
    double seconds = 0, pairs = 0, kept = 0;
    QJsonArray epochArray;
    for (const Word2VecEpoch &e : epochs) {
        seconds += e.seconds;
        pairs += double(e.pairs);
        kept += double(e.tokensKept);
        epochArray.append(QJsonObject{{"epoch", e.epoch}, {"loss", e.loss}, {"seconds", e.seconds},
                                      {"words_per_s", e.wordsPerSecond}, {"tokens_kept", double(e.tokensKept)},
                                      {"pairs", double(e.pairs)}});
    }
    const double wordsTrained = double(preview.keptTokens) * double(epochs.size());
    QJsonObject metrics{
        {"config", toJson(config, word2vecFields())},
        {"corpus_config", toJson(corpusConfig, corpusFields())},
        {"corpus", QJsonObject{{"file", QString::fromStdString(cl.text("corpus"))},
                               {"words", double(preview.rawTokens)},
                               {"distinct_words", double(preview.distinctWords)},
                               {"vocabulary", preview.vocabulary},
                               {"tokens_in_vocabulary", double(preview.keptTokens)},
                               {"tokens_after_subsampling_per_epoch", kept / double(epochs.size())},
                               {"pairs_per_epoch", pairs / double(epochs.size())}}},
        {"epochs", epochArray},
        {"epochs_completed", int(epochs.size())},
        {"train_s", seconds},
        {"words_per_s", wordsTrained / seconds},
        {"interrupted", interrupt.interrupted()},
    };
    if (!analogies.empty()) {
        try {
            const AnalogyResult r = evaluateAnalogies(index, analogies);
            metrics.insert("analogies", analogyJson(r));
            std::fprintf(stderr, "analogies: %d/%d right (%.1f%%), %d skipped (a word not in the vocabulary)\n",
                         r.right, r.asked, 100 * r.accuracy(), r.skipped);
        } catch (const std::invalid_argument &e) {
            return failure(cl.text("analogies") + ": " + e.what());
        }
    }
    if (!similarity.empty()) {
        try {
            const SimilarityResult r = evaluateSimilarity(index, similarity);
            metrics.insert("similarity", QJsonObject{{"pairs", r.pairs}, {"skipped", r.skipped}, {"spearman", r.spearman}});
            std::fprintf(stderr, "similarity: Spearman %.3f over %d pairs, %d skipped\n", r.spearman, r.pairs,
                         r.skipped);
        } catch (const std::invalid_argument &e) {
            return failure(cl.text("similarity") + ": " + e.what());
        }
    }

    QString error;
    try {
        writeWord2VecText(file("vectors.txt").toStdString(), vectors);
    } catch (const std::exception &e) {
        return failure(e.what());
    }
    EmbeddingProjection map = projectWordMap(vectors, kMapWords);
    map.words.resize(std::min<std::size_t>(map.words.size(), kMapWords));
    EmbeddingPlot plot;
    plot.setProjection(map, QStringLiteral("The %1 most frequent words").arg(map.words.size()));
    if (!writeFileAtomically(file("neighbours.txt"), QByteArray::fromStdString(neighboursText(index, kNeighbourWords)), &error) ||
        !plot.exportImage(file("pca.png"), 1000, 800, &error) ||
        !folder.writeMetrics(metrics, &error))
        return failure(error.toStdString());
    std::printf("%.0f words/s over %zu epochs (%.1f s); wrote vectors.txt, metrics.json, pca.png, neighbours.txt in %s\n",
                wordsTrained / seconds, epochs.size(), seconds, folder.path().c_str());
    return 0;
}

int runNeighbours(const std::vector<std::string> &arguments)
{
    CommandLine cl({"vectors", "top"}, {});
    LoadedQuery q = loadQuery("neighbours", cl, arguments, 0);
    if (q.exitCode != 0)
        return q.exitCode;
    const int top = cl.integer("top", kNeighbours, 1, 1000);
    if (!cl.ok())
        return usageError("neighbours", cl.error());
    for (int word : q.words) {
        std::printf("%s:\n", q.index->word(word).c_str());
        printScored(q.index->nearest(word, top));
    }
    return 0;
}

int runAnalogy(const std::vector<std::string> &arguments)
{
    CommandLine cl({"vectors", "top"}, {});
    LoadedQuery q = loadQuery("analogy", cl, arguments, 3);
    if (q.exitCode != 0)
        return q.exitCode;
    const int top = cl.integer("top", 5, 1, 1000);
    if (!cl.ok())
        return usageError("analogy", cl.error());
    std::printf("%s : %s :: %s : ?\n", q.index->word(q.words[0]).c_str(), q.index->word(q.words[1]).c_str(),
                q.index->word(q.words[2]).c_str());
    printScored(q.index->analogy(q.words[0], q.words[1], q.words[2], top));
    return 0;
}
