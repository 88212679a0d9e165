#include "app/word2vec/word2vecexercise.h"

#include "app/core/commandline.h"
#include "app/word2vec/word2veccommands.h"
#include "app/workbench/exercisecommand.h"
#include "engine/word2vec/vectorqueries.h"
#include "ui/core/plotexport.h"
#include "ui/word2vec/corpuspanel.h"
#include "ui/word2vec/word2veclab.h"

#include <QDir>
#include <QJsonArray>

#include <exception>

namespace {

// Eight sentences of the royal family, the full stop a word of its own, as the exercise's corpus.
constexpr const char *kCorpus = "the king is a man .\n"
                                "the queen is a woman .\n"
                                "the prince is a young man .\n"
                                "the princess is a young woman .\n"
                                "the king and the queen rule the kingdom .\n"
                                "the prince is the son of the king .\n"
                                "the princess is the daughter of the queen .\n"
                                "the man and the woman are royal .\n";

// The epochs whose loss the exercise prints.
constexpr int kPrintedEveryWord2Vec = 10;
// The words whose neighbours it answers with.
const char *const kAskedWords[] = {"king", "queen", "man", "woman", "prince", "princess"};

// The exercise's settings as `word2vec` flags.
const std::vector<std::string> kWord2VecSettings = {"--dim", "16", "--window", "2", "--whole-window", "--negative", "5",
                                            "--noise-exponent", "0", "--constant-rate", "--alpha", "0.05",
                                            "--epochs", "50", "--init-std", "0.1", "--punctuation", "--seed", "1",
                                            "--threads", "1"};

// The settings pasted with the corpus into the lab's Setup dock.
QWidget *openWord2VecExercise(Lab *lab)
{
    const auto [corpus, training] = configsFromFlags(kWord2VecSettings, corpusFields(), word2vecFields());
    CorpusPanel *panel = qobject_cast<Word2VecLab *>(lab)->corpusPanel();
    panel->setSource(CorpusPanel::Source::Pasted);
    panel->setPastedText(QString::fromLatin1(kCorpus));
    panel->setConfigs(corpus, training);
    return nullptr;
}

// The loss at the printed epochs and the asked words' neighbours, from the run the lab shows.
QString answerWord2VecExercise(Lab *lab)
{
    const auto *w2v = qobject_cast<const Word2VecLab *>(lab);
    if (!w2v->vectors() || w2v->history().empty())
        return QStringLiteral("The run ended before its first epoch did: there are no vectors to answer from.");
    QString text = printedEpochsTable(w2v->history(), kPrintedEveryWord2Vec, QStringLiteral("epoch"), QStringLiteral("loss"),
                                      [](const Word2VecEpoch &e) { return e.loss; });
    text += QStringLiteral("\n**Nearest words** (cosine):\n\n");
    const VectorIndex index(*w2v->vectors());
    for (const char *word : kAskedWords) {
        const int i = index.index(word);
        if (i < 0)
            continue;
        QStringList nearest;
        for (const ScoredWord &s : index.nearest(i, 3))
            nearest << QStringLiteral("%1 (%2)").arg(QString::fromStdString(s.word)).arg(s.score, 0, 'f', 2);
        text += QStringLiteral("- %1: %2\n").arg(QString::fromLatin1(word), nearest.join(QStringLiteral(", ")));
    }
    return text + QStringLiteral("\nThe map shows the vectors' PCA; File ▸ Export saves it as a picture.");
}

int runWord2VecExercise(const std::string &outDir)
{
    const QDir dir(QString::fromStdString(outDir));
    const QString corpus = dir.filePath(QStringLiteral("corpus.txt"));
    QString error;
    if (!writeFileAtomically(corpus, QByteArray(kCorpus), &error))
        return failure(error.toStdString());
    std::vector<std::string> flags = {"--corpus", corpus.toStdString(), "--out", outDir};
    flags.insert(flags.end(), kWord2VecSettings.begin(), kWord2VecSettings.end());
    const int trained = runWord2Vec(flags);
    if (trained != 0)
        return trained;

    const QJsonArray losses = printedEpochs(outDir, kPrintedEveryWord2Vec, QStringLiteral("loss"));
    QJsonObject neighbours;
    try {
        const VectorIndex index(readWord2VecText(dir.filePath(QStringLiteral("vectors.txt")).toStdString()));
        for (const char *word : kAskedWords) {
            QJsonArray nearest;
            for (const ScoredWord &s : index.nearest(index.index(word), 3))
                nearest.append(QJsonObject{{"word", QString::fromStdString(s.word)}, {"cosine", s.score}});
            neighbours.insert(word, nearest);
        }
    } catch (const std::exception &e) {
        return failure(e.what());
    }
    return writeAnswers(outDir, "skipgram",
                        {{"loss_by_epoch", losses},
                         {"nearest_neighbours", neighbours},
                         {"picture", "pca.png"},
                         {"corpus", "corpus.txt: eight sentences of the royal family written for AttnScope, "
                                    "with the exercise's shape; the course's own lines are not bundled"}});
}

} // namespace

Exercise skipGramExercise()
{
    return {"skipgram", "Skip-gram with negative sampling on a toy corpus, with a PCA plot",
            "Eight royal-family sentences with the full stop as a word; the window of 2 taken whole, 16 "
            "dimensions, 5 negatives drawn uniformly, plain SGD at 0.05 throughout, 50 epochs, vectors "
            "started from N(0, 0.1).",
            runWord2VecExercise,
            "**The task.** Train skip-gram with negative sampling on the eight sentences, print the loss, and "
            "plot the word vectors' PCA.\n\n**In the app**, the sentences and the settings are on the Setup dock "
            "(whole window, constant rate, punctuation kept, init N(0, 0.1)): press Train, watch the map, and the "
            "loss every 10 epochs and the neighbours of king, queen, man, woman, prince and princess appear "
            "below.\n\n**A run on this build** (2026-11-28): loss 2.21 at epoch "
            "10, 1.85 at epoch 50; king's nearest word is queen (cosine 0.92), prince's princess (0.98).",
            openWord2VecExercise, answerWord2VecExercise};
}
