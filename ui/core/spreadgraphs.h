#pragma once

#include "engine/core/seedspread.h"

#include <qcustomplot.h>

#include <map>

// A measure over runs with several seeds: its mean as a line inside the band from its minimum to
// its maximum (the translucent fill between two graphs without lines). With one seed the band
// has no width and the line is that run's.
struct SpreadGraphs {
    QCPGraph *mean = nullptr;
    QCPGraph *min = nullptr;
    QCPGraph *max = nullptr;
};

// Adds the three graphs on `plot`'s x axis and `valueAxis`; the band takes `pen`'s colour. Only
// the mean is in the legend, under `name` (none when empty).
SpreadGraphs addSpreadGraphs(QCustomPlot &plot, QCPAxis *valueAxis, const QPen &pen, const QString &name);
// Each key's mean, min and max, times `scale`.
void setSpreadData(const SpreadGraphs &graphs, const std::map<int, Spread> &spread, double scale = 1);
