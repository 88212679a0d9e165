// The Transformer lab in the registry: its window part, its model file, and its answers to train, reverse,
// evaluate, compare, explain and bench --architecture transformer.
#include "app/transformer/transformerbench.h"
#include "app/transformer/transformercommands.h"
#include "app/transformer/transformerhelp.h"
#include "app/core/signaturerecogniser.h"
#include "app/workbench/labmodule.h"
#include "engine/transformer/transformercheckpoint.h"
#include "ui/transformer/transformerlab.h"

#include <QObject>

LabModule transformerModule()
{
    LabModule module;
    module.info.id = QStringLiteral("transformer");
    module.info.name = QObject::tr("Transformer");
    module.info.switcherName = QObject::tr("Transformer");
    module.info.summary = QObject::tr("Train an encoder-decoder Transformer to reverse sentences, type one and watch "
                                      "every layer's and head's attention form, epoch by epoch.");
    module.info.fileTypes = {
        {QObject::tr("AttnScope Transformer model"), {QStringLiteral("ckpt")},
         QStringLiteral("application/x-attnscope-transformer"), signatureRecogniser(transformercheckpoint::kSignature)},
    };
    module.createLab = [](Workbench *workbench) { return new TransformerLab(workbench); };
    module.commands = {
        {"train", "attnscope train --architecture transformer --out DIR [options]",
         "train the Transformer to reverse sentences", transformerTrainHelp, runTransformerTrain, "transformer"},
        {"reverse",
         "attnscope reverse --architecture transformer --model FILE [--json]\n"
         "                  [--beam K] [--alpha A] [--nbest N] \"a sentence\"",
         "reverse a sentence with a trained Transformer", transformerReverseHelp, runTransformerReverse,
         "transformer"},
        {"evaluate",
         "attnscope evaluate --architecture transformer --model FILE [--corpus FILE] [--examples N]\n"
         "                   [--probe-max-len N] [--probe N] [--json]",
         "score a Transformer on its test split and by length", transformerEvaluateHelp, runTransformerEvaluate,
         "transformer"},
        {"compare",
         "attnscope compare --architecture transformer --out DIR [--positions LIST] [--probe-max-len N]\n"
         "                  [--probe N] [--seeds N] [train options]",
         "train Transformer variants on the same data and compare them by length", transformerCompareHelp,
         runTransformerCompare, "transformer"},
        {"explain",
         "attnscope explain --architecture transformer --model FILE [--method METHOD] [--steps M]\n"
         "                  [--baseline zero|unknown] [--mode drop|unknown] [--json|--csv] \"a sentence\"",
         "which words each output word came from: attention, rollout, gradients",
         transformerExplainHelp, runTransformerExplain, "transformer"},
        {"bench", "attnscope bench --architecture transformer [--threads N] [--json OUT] [training options]",
         "measure the Transformer's training speed, accuracy and decoding latency", transformerBenchHelp,
         runTransformerBench, "transformer"},
    };
    return module;
}
