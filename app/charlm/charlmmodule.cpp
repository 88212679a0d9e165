// The character language-model lab in the registry: its window part, its files, its commands and
// its exercise.
#include "app/charlm/charlmcommands.h"
#include "app/charlm/charlmexercise.h"
#include "app/charlm/charlmhelp.h"
#include "app/core/signaturerecogniser.h"
#include "app/workbench/labmodule.h"
#include "engine/charlm/charcheckpoint.h"
#include "ui/charlm/charlmlab.h"

#include <QObject>

LabModule charlmModule()
{
    LabModule module;
    module.info.id = QStringLiteral("charlm");
    module.info.name = QObject::tr("Character Model");
    module.info.switcherName = QObject::tr("Character\nModel");
    module.info.summary = QObject::tr("Train an RNN, GRU or LSTM to write a text one character at a time: beat "
                                      "counting (n-grams), sample it at any temperature, see what its units track.");
    module.info.fileTypes = {
        {QObject::tr("AttnScope character model"), {QStringLiteral("ckpt")},
         QStringLiteral("application/x-attnscope-charmodel"), signatureRecogniser(charcheckpoint::kSignature)},
    };
    module.createLab = [](Workbench *workbench) { return new CharLmLab(workbench); };
    module.commands = {
        {"charlm",
         "attnscope charlm --text FILE --out DIR [--prime TEXT] [options]\n"
         "attnscope charlm explain --model FILE [--last N] [--steps M] [--next C] [--json|--csv] CONTEXT",
         "train a character language model on a text; explain its next character", charLmHelp, runCharLm},
        {"generate",
         "attnscope generate --model FILE [--prime TEXT] [--temperature T] [--top-k K] [--length N]\n"
         "                   [--seed S] [--json | --latency N]",
         "sample text from a character model", generateHelp, runGenerate},
    };
    module.exercises = {charRnnExercise()};
    return module;
}
