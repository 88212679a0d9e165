// The self-attention explorer in the registry: a window part and the course's exercise, no files
// and no commands of its own.
#include "app/selfattention/selfattentionexercise.h"
#include "app/workbench/labmodule.h"
#include "ui/selfattention/selfattentionlab.h"

#include <QObject>

LabModule selfattentionModule()
{
    LabModule module;
    module.info.id = QStringLiteral("selfattention");
    module.info.name = QObject::tr("Self-Attention");
    module.info.switcherName = QObject::tr("Self-\nAttention");
    module.info.summary = QObject::tr("Guess, then compute, scaled dot-product attention for a short sentence, step "
                                      "by step: queries, keys, scores, the softmax and the mix of values.");
    module.createLab = [](Workbench *workbench) { return new SelfAttentionLab(workbench); };
    module.exercises = {selfAttentionExercise()};
    return module;
}
