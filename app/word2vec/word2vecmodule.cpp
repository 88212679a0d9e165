// The word-embedding lab in the registry: its window part, its files, its commands and its exercise.
#include "app/word2vec/word2veccommands.h"
#include "app/word2vec/word2vecexercise.h"
#include "app/word2vec/word2vechelp.h"
#include "app/workbench/labmodule.h"
#include "engine/word2vec/wordvectors.h"
#include "ui/word2vec/word2veclab.h"

#include <QObject>

LabModule word2vecModule()
{
    LabModule module;
    module.info.id = QStringLiteral("word2vec");
    module.info.name = QObject::tr("Word Embeddings");
    module.info.switcherName = QObject::tr("Word\nEmbeddings");
    module.info.summary = QObject::tr("Train word2vec (skip-gram or CBOW) on a corpus and watch words find their "
                                      "neighbours on a map; ask for neighbours and analogies.");
    // Vectors are told by their content: a "count dimensions" line, then a word and its numbers as
    // text or as raw floats.
    module.info.fileTypes = {
        {QObject::tr("Word vectors, word2vec text"), {QStringLiteral("txt"), QStringLiteral("vec")}, QString(),
         [](const QByteArray &head) { return word2vecFormat(head.toStdString()) == Word2VecFormat::Text; }},
        {QObject::tr("Word vectors, word2vec binary"), {QStringLiteral("bin")}, QString(),
         [](const QByteArray &head) { return word2vecFormat(head.toStdString()) == Word2VecFormat::Binary; }},
    };
    module.createLab = [](Workbench *workbench) { return new Word2VecLab(workbench); };
    module.commands = {
        {"word2vec", "attnscope word2vec --corpus FILE --out DIR [--analogies FILE] [--similarity FILE] [options]",
         "train word vectors on a text", word2vecHelp, runWord2Vec},
        {"neighbours", "attnscope neighbours --vectors FILE [--top N] word ...",
         "the nearest words in a vectors file", neighboursHelp, runNeighbours},
        {"analogy", "attnscope analogy --vectors FILE [--top N] a b c",
         "a : b :: c : ? in a vectors file", analogyHelp, runAnalogy},
    };
    module.exercises = {skipGramExercise()};
    return module;
}
