#pragma once

#include <qcustomplot.h>

// Colour maps shared by the plots. Viridis, chosen for weights and entropies: perceptually uniform,
// its lightness rising monotonically from dark purple (low) to yellow (high), so it orders values
// in greyscale too, and its blue-to-yellow path needs no red-green vision. QCustomPlot 2.1 has no
// such preset, so it is rebuilt from matplotlib's published samples.
QCPColorGradient viridisGradient();

// Blue through white to red, for signed values such as a difference: white at the middle, so it
// belongs on a data range symmetric about zero (negative blue, positive red). ColorBrewer's RdBu,
// whose two hues stay apart in the common colour-vision deficiencies.
QCPColorGradient divergingGradient();

// Black or white, whichever reads better on `background`.
QColor contrastingTextColor(const QColor &background);
