#include "ui/core/spreadgraphs.h"

namespace {

constexpr int kBandAlpha = 45;

}

SpreadGraphs addSpreadGraphs(QCustomPlot &plot, QCPAxis *valueAxis, const QPen &pen, const QString &name)
{
    SpreadGraphs g;
    g.min = plot.addGraph(plot.xAxis, valueAxis);
    g.max = plot.addGraph(plot.xAxis, valueAxis);
    QColor band = pen.color();
    band.setAlpha(kBandAlpha);
    for (QCPGraph *edge : {g.min, g.max}) {
        edge->setPen(Qt::NoPen);
        edge->removeFromLegend();
    }
    g.min->setBrush(band);
    g.min->setChannelFillGraph(g.max);
    g.mean = plot.addGraph(plot.xAxis, valueAxis);  // last, so the line lies on its band
    g.mean->setPen(pen);
    g.mean->setName(name);
    if (name.isEmpty())
        g.mean->removeFromLegend();
    return g;
}

void setSpreadData(const SpreadGraphs &graphs, const std::map<int, Spread> &spread, double scale)
{
    QVector<double> keys, mean, min, max;
    for (const auto &[key, s] : spread) {
        keys << key;
        mean << scale * s.mean;
        min << scale * s.min;
        max << scale * s.max;
    }
    graphs.mean->setData(keys, mean, /*alreadySorted=*/true);
    graphs.min->setData(keys, min, /*alreadySorted=*/true);
    graphs.max->setData(keys, max, /*alreadySorted=*/true);
}
