#include "ui/charlm/memorisationplot.h"

#include "ui/core/plotexport.h"
#include "ui/core/plotstyle.h"

#include <algorithm>
#include <cmath>

namespace {

const QColor kLineColor(30, 150, 60);
const QColor kLimitColor(110, 110, 110);

}

MemorisationPlot::MemorisationPlot(QWidget *parent)
    : QCustomPlot(parent), m_graph(addGraph()), m_limitLine(new QCPItemStraightLine(this)),
      m_limitText(new QCPItemText(this))
{
    const PlotFonts fonts = plotFonts(font());
    m_title = addPlotTitle(*this, tr("Memorisation: characters recited"), fonts);
    m_graph->setPen(QPen(kLineColor, 2));
    m_graph->setLineStyle(QCPGraph::lsStepLeft);
    m_graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, kLineColor, kLineColor, 4));
    m_limitLine->setPen(QPen(kLimitColor, 1, Qt::DashLine));
    m_limitText->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
    m_limitText->position->setTypeY(QCPItemPosition::ptPlotCoords);
    m_limitText->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
    m_limitText->setColor(kLimitColor);
    m_limitText->setFont(fonts.tick);
    m_limitText->setPadding(QMargins(4, 1, 4, 1));
    for (QCPAbstractItem *item : std::initializer_list<QCPAbstractItem *>{m_limitLine, m_limitText})
        item->setLayer(QStringLiteral("grid"));
    xAxis->setLabel(tr("epoch"));
    yAxis->setLabel(tr("characters"));
    auto whole = QSharedPointer<QCPAxisTickerFixed>::create();  // characters come whole
    whole->setTickStep(1);
    whole->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    whole->setTickCount(4);
    yAxis->setTicker(whole);
    for (QCPAxis *axis : {xAxis, yAxis}) {
        axis->setTickLabelFont(fonts.tick);
        axis->setLabelFont(fonts.label);
    }
    clear();
}

void MemorisationPlot::clear()
{
    m_graph->data()->clear();
    m_last = 0;
    m_best = 0;
    m_maxPosition = 0;
    m_limitLine->setVisible(false);
    m_limitText->setVisible(false);
    followData();
    replot(rpQueuedReplot);
}

void MemorisationPlot::setLimit(int64_t limit, bool wholeText)
{
    m_limit = limit;
    m_limitLine->point1->setCoords(0, double(limit));
    m_limitLine->point2->setCoords(1, double(limit));
    m_limitText->position->setCoords(0.01, double(limit));
    m_limitText->setText(wholeText ? tr("the whole text (%1)").arg(limit) : tr("counted up to %1").arg(limit));
    m_limitLine->setVisible(limit > 0);
    m_limitText->setVisible(limit > 0);
    followData();
    replot(rpQueuedReplot);
}

void MemorisationPlot::addPoint(double epochPosition, int64_t characters)
{
    m_graph->addData(epochPosition, double(characters));
    m_last = characters;
    m_best = std::max(m_best, characters);
    m_maxPosition = std::max(m_maxPosition, epochPosition);
    followData();
    replot(rpQueuedReplot);
}

void MemorisationPlot::followData()
{
    xAxis->setRange(0, std::max(1.0, std::ceil(m_maxPosition - 1e-9)));
    // Up to the whole text when the model is close to it, so the line to reach stays in view;
    // otherwise the data's own scale, where early progress is visible.
    // Room above the line for its label.
    const bool nearLimit = m_limit > 0 && m_best * 3 > m_limit;
    yAxis->setRange(0, nearLimit ? 1.35 * double(m_limit) : 1.15 * double(std::max<int64_t>(m_best, 4)));
}

bool MemorisationPlot::exportImage(const QString &path, int width, int height, QString *error)
{
    const bool written = exportPlotImage(*this, path, width, height, error);
    replot(rpQueuedReplot);
    return written;
}
