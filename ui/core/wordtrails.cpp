#include "ui/core/wordtrails.h"

#include <qcustomplot.h>

namespace {

const QColor kTrailColor(200, 30, 45, 110);

}

WordTrails::WordTrails(QCustomPlot *plot) : m_plot(plot) {}

void WordTrails::set(const QString &word, const QVector<QPointF> &points)
{
    m_trails.insert(word, points);
}

void WordTrails::append(const QString &word, const QPointF &point)
{
    const auto trail = m_trails.find(word);
    if (trail != m_trails.end())
        trail->append(point);
}

void WordTrails::clear()
{
    m_trails.clear();
}

void WordTrails::draw()
{
    for (QCPCurve *curve : std::as_const(m_curves))
        m_plot->removePlottable(curve);
    m_curves.clear();
    for (auto trail = m_trails.cbegin(); trail != m_trails.cend(); ++trail) {
        if (trail->size() < 2)
            continue;
        auto *curve = new QCPCurve(m_plot->xAxis, m_plot->yAxis);
        curve->setPen(QPen(kTrailColor, 1.5));
        curve->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDot, kTrailColor, 3));
        for (const QPointF &point : *trail)
            curve->addData(point.x(), point.y());
        curve->setSelectable(QCP::stNone);
        m_curves << curve;
    }
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}
