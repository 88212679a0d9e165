#include "ui/attention/alignmentplot.h"

#include "ui/core/okabeitocolors.h"
#include "ui/core/plotexport.h"
#include "ui/core/plotstyle.h"

#include <algorithm>
#include <cmath>

namespace {

// Okabe and Ito's blue and orange for the two alignment curves; exact match keeps the bluish green,
// dotted, that it has on the loss plot. The weight is dashed, for greyscale prints.
const QColor kAccuracyColor = okabeito::blue;
const QColor kWeightColor = okabeito::orange;
const QColor kExactMatchColor = okabeito::bluishGreen;

QCPGraph *makeGraph(QCPAxis *key, QCPAxis *value, const QString &name, const QPen &pen,
                    QCPScatterStyle::ScatterShape shape)
{
    auto *graph = new QCPGraph(key, value);
    graph->setName(name);
    graph->setPen(pen);
    graph->setScatterStyle(QCPScatterStyle(shape, pen.color(), pen.color(), 7));
    return graph;
}

} // namespace

AlignmentPlot::AlignmentPlot(QWidget *parent)
    : QCustomPlot(parent)
{
    const PlotFonts fonts = plotFonts(font());
    addPlotTitle(*this, tr("Alignment (validation set)"), fonts);
    legend->setVisible(true);
    legend->setFont(fonts.tick);
    // Before the graphs, whose legend entries then follow the wrap: three side by side do not fit
    // a dock's width.
    placeLegendBelow(*this, 2);
    m_accuracyGraph = makeGraph(xAxis, yAxis, tr("alignment accuracy"), QPen(kAccuracyColor, 2),
                                QCPScatterStyle::ssCircle);
    m_weightGraph = makeGraph(xAxis, yAxis2, tr("mean right-word weight"),
                              QPen(kWeightColor, 2, Qt::DashLine), QCPScatterStyle::ssSquare);
    m_exactMatchGraph = makeGraph(xAxis, yAxis, tr("val. exact match"), QPen(kExactMatchColor, 2, Qt::DotLine),
                                  QCPScatterStyle::ssTriangle);

    xAxis->setLabel(tr("epoch"));
    yAxis->setLabel(tr("accuracy, exact match (%)"));
    yAxis2->setLabel(tr("right-word weight"));
    yAxis2->setVisible(true);
    // The two scales line up: 100% and a weight of 1 at the same height, with room for points there.
    yAxis->setRange(-2, 105);
    yAxis2->setRange(-0.02, 1.05);
    yAxis2->setLabelColor(kWeightColor);
    yAxis2->setTickLabelColor(kWeightColor);
    auto epochTicker = QSharedPointer<QCPAxisTickerFixed>::create();
    epochTicker->setTickStep(1);
    epochTicker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    xAxis->setTicker(epochTicker);
    for (QCPAxis *axis : {xAxis, yAxis, yAxis2}) {
        axis->setTickLabelFont(fonts.tick);
        axis->setLabelFont(fonts.label);
    }
    m_message = addPlotMessage(*this, fonts);
    clear();
}

void AlignmentPlot::clear()
{
    showMessage(tr("Alignment is measured on the validation set after every epoch of training."));
}

void AlignmentPlot::showMessage(const QString &message)
{
    for (QCPGraph *graph : {m_accuracyGraph, m_weightGraph, m_exactMatchGraph})
        graph->data()->clear();
    fitRange();
    m_messageText = message;
    showPlotMessage(*this, *m_message, message);
    setAccessibleDescription(message);
    replot(rpQueuedReplot);
}

// The message was broken into lines for the width of the moment (a hidden dock's, perhaps).
void AlignmentPlot::resizeEvent(QResizeEvent *event)
{
    QCustomPlot::resizeEvent(event);
    if (m_message->visible()) {
        updateLayout();
        showPlotMessage(*this, *m_message, m_messageText);
    }
}

void AlignmentPlot::addEpoch(const EpochStats &stats, const AlignmentScore &score)
{
    if (score.steps == 0)
        return;
    m_message->setVisible(false);
    m_accuracyGraph->addData(stats.epoch, 100 * score.accuracy());
    m_weightGraph->addData(stats.epoch, score.meanRightWeight());
    m_exactMatchGraph->addData(stats.epoch, 100 * stats.valExactMatch);
    fitRange();
    setAccessibleDescription(tr("After epoch %1: alignment accuracy %2%, mean weight on the right word %3, "
                                "validation exact match %4%.")
                                 .arg(stats.epoch)
                                 .arg(100 * score.accuracy(), 0, 'f', 1)
                                 .arg(score.meanRightWeight(), 0, 'f', 3)
                                 .arg(100 * stats.valExactMatch, 0, 'f', 1));
    replot(rpQueuedReplot);
}

void AlignmentPlot::fitRange()
{
    bool found = false;
    const QCPRange epochs = m_accuracyGraph->getKeyRange(found);
    xAxis->setRange(found ? epochs.lower - 0.25 : 0.75, found ? std::max(epochs.upper, epochs.lower + 1) + 0.25 : 1.25);
}

bool AlignmentPlot::exportImage(const QString &path, int width, int height, QString *error)
{
    const bool written = exportPlotImage(*this, path, width, height, error);
    replot(rpQueuedReplot);  // the export laid the plot out at its own size
    return written;
}
