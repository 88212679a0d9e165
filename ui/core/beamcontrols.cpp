#include "ui/core/beamcontrols.h"

#include "engine/core/beamsearch.h"

#include <QCoreApplication>
#include <QDoubleSpinBox>
#include <QSpinBox>

QSpinBox *createBeamWidthBox(const QString &objectName)
{
    auto *width = new QSpinBox;
    width->setObjectName(objectName);
    width->setRange(1, 16);
    width->setSpecialValueText(QCoreApplication::translate("BeamControls", "1 (greedy)"));
    width->setToolTip(QCoreApplication::translate("BeamControls",
                                                  "Beam width: how many partial outputs are kept at each step. 1 "
                                                  "takes the most likely word every time (greedy)."));
    return width;
}

QDoubleSpinBox *createLengthAlphaBox(const QString &objectName)
{
    auto *alpha = new QDoubleSpinBox;
    alpha->setObjectName(objectName);
    alpha->setRange(0, kMaxLengthAlpha);
    alpha->setSingleStep(0.1);
    alpha->setDecimals(2);
    alpha->setValue(BeamOptions{}.alpha);
    alpha->setToolTip(QCoreApplication::translate("BeamControls",
                                                  "Length normalisation α: hypotheses are ranked by log P / "
                                                  "length^α. 0 favours short outputs, 1 ranks by the mean "
                                                  "log-probability per word."));
    return alpha;
}
