#pragma once

#include <qcustomplot.h>

// Colour maps shared by the plots. QCustomPlot 2.1 has no perceptually uniform preset, so viridis
// is rebuilt from its published samples: dark purple (low) to yellow (high), readable in grey.
QCPColorGradient viridisGradient();

// Black or white, whichever reads better on `background`.
QColor contrastingTextColor(const QColor &background);
