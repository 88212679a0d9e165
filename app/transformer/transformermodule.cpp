// The Transformer lab in the registry: its window part, and its answer to bench --architecture
// transformer.
#include "app/transformer/transformerbench.h"
#include "app/workbench/labmodule.h"
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
    module.createLab = [](Workbench *workbench) { return new TransformerLab(workbench); };
    module.commands = {
        {"bench", "attnscope bench --architecture transformer [--threads N] [--json OUT] [training options]",
         "measure the Transformer's training speed, accuracy and decoding latency", transformerBenchHelp,
         runTransformerBench, "transformer"},
    };
    return module;
}
