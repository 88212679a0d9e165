#pragma once

#include <QString>

class QDoubleSpinBox;
class QSpinBox;

// The two settings of a beam search as every lab's typing panel offers them: the width (1-16,
// 1 decoding greedily) and the length normalisation alpha.
QSpinBox *createBeamWidthBox(const QString &objectName);
QDoubleSpinBox *createLengthAlphaBox(const QString &objectName);
