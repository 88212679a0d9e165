// The attention lab in the registry: its window part, its files, its commands and its exercises.
#include "app/attention/attentionexercises.h"
#include "app/attention/attentionhelp.h"
#include "app/attention/bench.h"
#include "app/attention/commands.h"
#include "app/core/signaturerecogniser.h"
#include "app/workbench/labmodule.h"
#include "engine/attention/checkpointformat.h"
#include "engine/attention/projectfile.h"
#include "ui/attention/attentionlab.h"

#include <QObject>

LabModule attentionModule()
{
    LabModule module;
    module.info.id = QStringLiteral("attention");
    module.info.name = QObject::tr("Attention");
    module.info.switcherName = QObject::tr("Attention");
    module.info.summary = QObject::tr("Train an RNN, GRU or LSTM encoder and decoder with attention to reverse sentences, then see "
                                      "where it looks: heatmaps, beam search, the run epoch by epoch, attention "
                                      "variants side by side, real text with a pointer.");
    module.info.fileTypes = {
        {QObject::tr("AttnScope attention model"), {QStringLiteral("ckpt")}, QStringLiteral("application/x-attnscope-model"),
         signatureRecogniser(checkpointformat::kSignature)},
        {QObject::tr("AttnScope project"), {QStringLiteral("attnscope")}, QStringLiteral("application/x-attnscope-project"),
         signatureRecogniser(projectfile::kSignature)},
    };
    module.createLab = [](Workbench *workbench) { return new AttentionLab(workbench); };
    module.startInApp = [](Lab *lab) { static_cast<AttentionLab *>(lab)->loadBundledModel(); };
    module.commands = {
        {"train", "attnscope train --out DIR [options]", "train the attention model to reverse sentences", trainHelp,
         runTrain, "rnn"},
        {"reverse",
         "attnscope reverse [--model FILE] [--json] [--heatmap OUT.png] [--no-unk-replace]\n"
         "                  [--beam K] [--alpha A] [--nbest N] \"a sentence\"",
         "reverse a sentence with a trained model", reverseHelp, runReverse, "rnn"},
        {"evaluate", "attnscope evaluate [--model FILE] [--corpus FILE] [--examples N] [--batched]",
         "score a model on its test split", evaluateHelp, runEvaluate, "rnn"},
        {"explain",
         "attnscope explain [--model FILE] [--sentences N] [--mode drop|unknown] [--json] [\"a sentence\"]\n"
         "                  [--method METHOD] [--steps M] [--baseline zero|unknown] [--csv] [--faithfulness]",
         "does attention explain the output? gradients, occlusion, erasure", explainHelp,
         runExplain, "rnn"},
        {"compare",
         "attnscope compare --out DIR [--attention LIST] [--probe-max-len N] [--probe N] [--seeds N]\n"
         "                  [train options]",
         "train each attention variant on the same data and compare them by length", compareHelp, runCompare, "rnn"},
        {"reproduce", "attnscope reproduce [--threads N] FILE.attnscope",
         "train a project's run again and check it comes out the same", reproduceHelp, runReproduce},
        {"bench", "attnscope bench [--threads N] [--json OUT] [--quick] [--corpus FILE | --load | --startup]",
         "measure training speed, decoding latency, GUI stalls and memory", benchHelp, runBench, "rnn"},
    };
    module.exercises = attentionExercises();
    return module;
}
