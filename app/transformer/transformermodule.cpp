// The Transformer lab in the registry: a window part; its commands come with its model files.
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
    return module;
}
