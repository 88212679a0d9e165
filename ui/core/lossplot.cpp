#include "ui/core/lossplot.h"

#include "ui/core/okabeitocolors.h"
#include "ui/core/plotexport.h"
#include "ui/core/plotstyle.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace {

// Batch, validation and exact match take Okabe and Ito's colours (blue, vermillion, bluish green),
// which people with red-green colour blindness tell apart; train is a darker shade of batch, the
// same quantity per epoch. Validation is also dashed and exact match dotted, for greyscale prints.
const QColor kBatchColor = okabeito::blue;
const QColor kTrainColor(20, 45, 120);
const QColor kValidationColor = okabeito::vermillion;
const QColor kExactMatchColor = okabeito::bluishGreen;
const QColor kBestColor(200, 30, 45);
const QColor kReferenceColor(110, 60, 150);
const QColor kMarkerColor(60, 60, 60);

QCPGraph *makeGraph(QCPAxis *key, QCPAxis *value, const QString &name, const QPen &pen,
                    const QCPScatterStyle &scatter)
{
    QCPGraph *graph = new QCPGraph(key, value);
    graph->setName(name);
    graph->setPen(pen);
    graph->setScatterStyle(scatter);
    return graph;
}

QString csvNumber(double value)
{
    return QString::number(value, 'g', 8);
}

} // namespace

LossPlot::LossPlot(QWidget *parent)
    : QCustomPlot(parent)
{
    const PlotFonts fonts = plotFonts(font());
    const QFont &tickFont = fonts.tick;
    const QFont &labelFont = fonts.label;
    addPlotTitle(*this, tr("Training"), fonts);

    QColor faint = kBatchColor;
    faint.setAlpha(55);
    m_batchGraph = makeGraph(xAxis, yAxis, tr("batch loss"), Qt::NoPen,
                             QCPScatterStyle(QCPScatterStyle::ssDisc, faint, faint, 3));
    m_batchGraph->setLineStyle(QCPGraph::lsNone);
    m_smoothedGraph = makeGraph(xAxis, yAxis, tr("smoothed"), QPen(kBatchColor, 1.5),
                                QCPScatterStyle());
    m_trainGraph = makeGraph(xAxis, yAxis, tr("train loss"), QPen(kTrainColor, 2),
                             QCPScatterStyle(QCPScatterStyle::ssCircle, kTrainColor, Qt::white, 7));
    m_validationGraph = makeGraph(xAxis, yAxis, tr("val. loss"), QPen(kValidationColor, 2, Qt::DashLine),
                                  QCPScatterStyle(QCPScatterStyle::ssCircle, kValidationColor, kValidationColor, 7));
    m_exactMatchGraph = makeGraph(xAxis, yAxis2, tr("val. exact match"),
                                  QPen(kExactMatchColor, 2, Qt::DotLine),
                                  QCPScatterStyle(QCPScatterStyle::ssTriangle, kExactMatchColor, kExactMatchColor, 7));
    m_bestGraph = makeGraph(xAxis, yAxis, tr("best epoch"), Qt::NoPen,
                            QCPScatterStyle(QCPScatterStyle::ssStar, QPen(kBestColor, 2), Qt::NoBrush, 17));
    m_bestGraph->setLineStyle(QCPGraph::lsNone);

    m_bestLine = new QCPItemStraightLine(this);
    m_bestLine->setPen(QPen(kBestColor, 1, Qt::DotLine));
    m_bestLine->setVisible(false);
    m_bestLabel = new QCPItemText(this);
    m_bestLabel->position->setTypeX(QCPItemPosition::ptPlotCoords);
    m_bestLabel->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    m_bestLabel->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_bestLabel->setPadding(QMargins(4, 2, 4, 2));
    m_bestLabel->setColor(kBestColor);
    m_bestLabel->setBrush(QColor(255, 255, 255, 220));  // readable over grid lines
    // Beneath the curves: the label must never hide a data point.
    m_bestLine->setLayer(QStringLiteral("grid"));
    m_bestLabel->setLayer(QStringLiteral("grid"));
    m_bestLabel->setFont(labelFont);
    m_bestLabel->setVisible(false);

    m_referenceLine = new QCPItemStraightLine(this);
    m_referenceLine->setPen(QPen(kReferenceColor, 1.5, Qt::DashLine));
    m_referenceText = new QCPItemText(this);
    m_referenceText->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
    m_referenceText->position->setTypeY(QCPItemPosition::ptPlotCoords);
    m_referenceText->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
    m_referenceText->setPadding(QMargins(4, 1, 4, 1));
    m_referenceText->setColor(kReferenceColor);
    m_referenceText->setBrush(QColor(255, 255, 255, 220));
    m_referenceText->setFont(labelFont);
    m_referenceLine->setLayer(QStringLiteral("grid"));
    m_referenceText->setLayer(QStringLiteral("grid"));

    // No label: the scrubber names the epoch, and a label here would cover the curves it crosses.
    m_marker = new QCPItemStraightLine(this);
    m_marker->setPen(QPen(kMarkerColor, 2));
    m_marker->setLayer(QStringLiteral("grid"));
    m_marker->setVisible(false);

    xAxis->setLabel(tr("epoch"));
    yAxis->setLabel(tr("loss (cross-entropy)"));
    yAxis2->setLabel(tr("val. exact match (%)"));
    yAxis2->setVisible(true);
    yAxis2->setRange(0, 100);
    auto epochTicker = QSharedPointer<QCPAxisTickerFixed>::create();
    epochTicker->setTickStep(1);
    epochTicker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    xAxis->setTicker(epochTicker);
    for (QCPAxis *axis : {xAxis, yAxis, yAxis2}) {
        axis->setTickLabelFont(tickFont);
        axis->setLabelFont(labelFont);
    }
    yAxis2->setLabelColor(kExactMatchColor);
    yAxis2->setTickLabelColor(kExactMatchColor);

    // Legend under the plot, where no curve can hide behind it.
    legend->setVisible(true);
    legend->setFont(tickFont);
    legend->setBorderPen(Qt::NoPen);
    axisRect()->insetLayout()->take(legend);
    plotLayout()->addElement(2, 0, legend);
    plotLayout()->setRowStretchFactor(2, 0.001);
    legend->setMargins(QMargins(6, 0, 6, 4));
    fitLegendColumns(width());

    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    connect(xAxis, qOverload<const QCPRange &>(&QCPAxis::rangeChanged), this, &LossPlot::onRangeChanged);
    connect(yAxis, qOverload<const QCPRange &>(&QCPAxis::rangeChanged), this, &LossPlot::onRangeChanged);
    connect(this, &QCustomPlot::mouseDoubleClick, this, &LossPlot::onDoubleClick);
    connect(this, &QCustomPlot::beforeReplot, this, &LossPlot::placeBestLabel);
    clear();
}

void LossPlot::resizeEvent(QResizeEvent *event)
{
    fitLegendColumns(event->size().width());
    QCustomPlot::resizeEvent(event);
}

// As many legend columns (at most three) as fit side by side, so no label is cut off.
void LossPlot::fitLegendColumns(int width)
{
    const QFontMetrics metrics(legend->font());
    int widest = 0;
    for (int i = 0; i < graphCount(); ++i)
        widest = std::max(widest, metrics.horizontalAdvance(graph(i)->name()));
    const int itemWidth = widest + legend->iconSize().width() + legend->iconTextPadding() + 16;
    const int available = width - legend->margins().left() - legend->margins().right();
    const int columns = std::clamp(available / std::max(1, itemWidth), 1, 3);
    if (columns == legend->wrap())
        return;
    legend->setWrap(columns);
    legend->setFillOrder(QCPLegend::foColumnsFirst);  // rearranges the items for the new wrap
}

void LossPlot::clear()
{
    m_batches.clear();
    m_epochs.clear();
    m_average = 0;
    m_decay = 1;
    m_maxLoss = 0;
    m_maxPosition = 0;
    m_bestEpoch = 0;
    for (QCPGraph *graph : {m_batchGraph, m_smoothedGraph, m_trainGraph, m_validationGraph,
                            m_exactMatchGraph, m_bestGraph})
        graph->data()->clear();
    m_bestLine->setVisible(false);
    m_bestLabel->setVisible(false);
    m_referenceValue = 0;
    m_referenceLine->setVisible(false);
    m_referenceText->setVisible(false);
    m_markerEpoch = 0;
    m_marker->setVisible(false);
    m_userZoomed = false;
    followData();
    replot(rpQueuedReplot);
}

void LossPlot::addBatch(double epochPosition, double loss)
{
    if (!std::isfinite(epochPosition) || !std::isfinite(loss))
        return;
    // Bias-corrected like Adam's moments: dividing by 1 - beta^n keeps early values at the
    // data's level instead of pulling them toward the zero the average starts from.
    m_average = kSmoothing * m_average + (1 - kSmoothing) * loss;
    m_decay *= kSmoothing;
    const double smoothed = m_average / (1 - m_decay);
    m_batches.push_back({epochPosition, loss, smoothed});
    m_batchGraph->addData(epochPosition, loss);
    m_smoothedGraph->addData(epochPosition, smoothed);
    m_maxLoss = std::max(m_maxLoss, smoothed);
    m_maxPosition = std::max(m_maxPosition, epochPosition);
    followData();
    replot(rpQueuedReplot);
}

void LossPlot::addEpoch(const EpochStats &stats, bool isBest)
{
    m_epochs.push_back(stats);
    const double x = stats.epoch;
    m_trainGraph->addData(x, stats.trainLoss);
    m_validationGraph->addData(x, stats.valLoss);
    m_exactMatchGraph->addData(x, 100 * stats.valExactMatch);
    for (double loss : {stats.trainLoss, stats.valLoss})
        if (std::isfinite(loss))
            m_maxLoss = std::max(m_maxLoss, loss);
    m_maxPosition = std::max(m_maxPosition, x);
    if (isBest)
        markBest(stats);
    followData();
    replot(rpQueuedReplot);
}

void LossPlot::setHistory(const std::vector<EpochStats> &history)
{
    clear();
    double best = 0;
    for (const EpochStats &stats : history) {
        const bool isBest = std::isfinite(stats.valLoss) && (m_bestEpoch == 0 || stats.valLoss < best);
        if (isBest)
            best = stats.valLoss;
        addEpoch(stats, isBest);
    }
}

void LossPlot::setReferenceLine(double value, const QString &label)
{
    const bool shown = std::isfinite(value);
    m_referenceValue = shown ? value : 0;
    m_referenceLine->point1->setCoords(0, m_referenceValue);
    m_referenceLine->point2->setCoords(1, m_referenceValue);
    m_referenceText->position->setCoords(0.99, m_referenceValue);
    m_referenceText->setText(label);
    m_referenceLine->setVisible(shown);
    m_referenceText->setVisible(shown);
    if (shown)
        m_maxLoss = std::max(m_maxLoss, value);
    followData();
    replot(rpQueuedReplot);
}

bool LossPlot::hasReferenceLine() const
{
    return m_referenceLine->visible();
}

void LossPlot::setMarker(double epoch)
{
    const bool shown = std::isfinite(epoch);
    m_markerEpoch = shown ? epoch : 0;
    m_marker->point1->setCoords(m_markerEpoch, 0);
    m_marker->point2->setCoords(m_markerEpoch, 1);
    m_marker->setVisible(shown);
    replot(rpQueuedReplot);
}

bool LossPlot::hasMarker() const
{
    return m_marker->visible();
}

QString LossPlot::referenceLabel() const
{
    return hasReferenceLine() ? m_referenceText->text() : QString();
}

bool LossPlot::exportImage(const QString &path, int width, int height, QString *error)
{
    const bool written = exportPlotImage(*this, path, width, height, error);
    replot(rpQueuedReplot);  // the export laid the plot out at its own size
    return written;
}

bool LossPlot::exportCsv(const QString &path, QString *error) const
{
    if (m_batches.empty() && m_epochs.empty()) {
        if (error)
            *error = tr("Nothing to export: no training data yet.");
        return false;
    }
    QString csv = QStringLiteral("epoch_position,batch_loss,smoothed_batch_loss,train_loss,val_loss,val_exact_match\n");
    std::size_t batch = 0;
    const auto writeBatchesUpTo = [&](double position) {
        for (; batch < m_batches.size() && m_batches[batch].position <= position; ++batch) {
            const BatchPoint &point = m_batches[batch];
            csv += csvNumber(point.position) + QLatin1Char(',') + csvNumber(point.loss) + QLatin1Char(',')
                   + csvNumber(point.smoothed) + QStringLiteral(",,,\n");
        }
    };
    for (const EpochStats &stats : m_epochs) {
        writeBatchesUpTo(stats.epoch);
        csv += csvNumber(stats.epoch) + QStringLiteral(",,,") + csvNumber(stats.trainLoss) + QLatin1Char(',')
               + csvNumber(stats.valLoss) + QLatin1Char(',') + csvNumber(stats.valExactMatch) + QLatin1Char('\n');
    }
    writeBatchesUpTo(std::numeric_limits<double>::infinity());
    return writeFileAtomically(path, csv.toUtf8(), error);
}

void LossPlot::markBest(const EpochStats &stats)
{
    m_bestEpoch = stats.epoch;
    m_bestGraph->data()->clear();
    m_bestGraph->addData(stats.epoch, stats.valLoss);
    m_bestLine->point1->setCoords(stats.epoch, 0);
    m_bestLine->point2->setCoords(stats.epoch, 1);
    m_bestLine->setVisible(true);
    m_bestLabel->position->setCoords(stats.epoch, 0.02);
    m_bestLabel->setText(tr("best: epoch %1").arg(stats.epoch));
    m_bestLabel->setVisible(true);
}

void LossPlot::placeBestLabel()
{
    // On the side of the line with more room, so the label is not cut at the plot's edge.
    const QCPRange range = xAxis->range();
    const bool rightHalf = m_bestEpoch - range.lower > 0.5 * range.size();
    m_bestLabel->setPositionAlignment((rightHalf ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignTop);
}

void LossPlot::followData()
{
    if (m_userZoomed)
        return;
    m_settingRange = true;
    // To the end of the epoch under way, plus room for the markers of the last one.
    xAxis->setRange(0, std::max(1.0, std::ceil(m_maxPosition - 1e-9)) + 0.25);
    yAxis->setRange(0, m_maxLoss > 0 ? 1.08 * m_maxLoss : 1.0);
    m_settingRange = false;
}

void LossPlot::onRangeChanged()
{
    if (!m_settingRange)
        m_userZoomed = true;
}

void LossPlot::onDoubleClick()
{
    m_userZoomed = false;
    followData();
    replot(rpQueuedReplot);
}
