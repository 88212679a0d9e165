#include "ui/core/lengthaccuracyplot.h"

#include "ui/core/okabeitocolors.h"
#include "ui/core/plotexport.h"
#include "ui/core/plotstyle.h"

#include <algorithm>
#include <iterator>

namespace {

// Distinct at a glance and for the common colour-vision deficiencies (Okabe and Ito).
const QColor kRunColors[] = {okabeito::blue,    okabeito::orange,     okabeito::bluishGreen, okabeito::reddishPurple,
                             okabeito::skyBlue, okabeito::vermillion, okabeito::black,       okabeito::yellow};
const QCPScatterStyle::ScatterShape kRunShapes[] = {QCPScatterStyle::ssCircle, QCPScatterStyle::ssSquare,
                                                    QCPScatterStyle::ssTriangle, QCPScatterStyle::ssDiamond};

} // namespace

LengthAccuracyPlot::LengthAccuracyPlot(QWidget *parent)
    : QCustomPlot(parent)
{
    const PlotFonts fonts = plotFonts(font());
    addPlotTitle(*this, tr("Exact match by sentence length"), fonts);
    xAxis->setLabel(tr("sentence length (words)"));
    yAxis->setLabel(tr("exact match (%)"));
    for (QCPAxis *axis : {xAxis, yAxis}) {
        axis->setTickLabelFont(fonts.tick);
        axis->setLabelFont(fonts.label);
    }
    auto lengthTicker = QSharedPointer<QCPAxisTickerFixed>::create();
    lengthTicker->setTickStep(1);
    lengthTicker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    xAxis->setTicker(lengthTicker);

    // Under the curves, on the grid layer, so no point is hidden by it.
    m_trained = new QCPItemRect(this);
    m_trained->setLayer(QStringLiteral("grid"));
    m_trained->setPen(Qt::NoPen);
    QColor trained = okabeito::blue;
    trained.setAlpha(28);
    m_trained->setBrush(trained);
    m_trained->topLeft->setTypeY(QCPItemPosition::ptAxisRectRatio);
    m_trained->bottomRight->setTypeY(QCPItemPosition::ptAxisRectRatio);
    m_trained->setVisible(false);
    m_trainedLabel = new QCPItemText(this);
    m_trainedLabel->setLayer(QStringLiteral("grid"));
    m_trainedLabel->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    m_trainedLabel->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
    m_trainedLabel->setFont(fonts.tick);
    m_trainedLabel->setColor(QColor(60, 60, 60));
    m_trainedLabel->setVisible(false);

    legend->setVisible(true);
    legend->setFont(fonts.tick);
    legend->setBrush(QColor(255, 255, 255, 220));
    placeLegendBelow(*this, 2);
    clear();
}

void LengthAccuracyPlot::clear()
{
    clearGraphs();
    m_runs.clear();
    fitRanges();
    replot(rpQueuedReplot);
}

void LengthAccuracyPlot::setTrainedRange(int minLength, int maxLength)
{
    m_minLength = minLength;
    m_maxLength = maxLength;
    m_trained->topLeft->setCoords(minLength - 0.5, 0);
    m_trained->bottomRight->setCoords(maxLength + 0.5, 1);
    m_trained->setVisible(true);
    m_trainedLabel->position->setCoords((minLength + maxLength) / 2.0, 0.97);
    m_trainedLabel->setText(tr("trained lengths %1-%2").arg(minLength).arg(maxLength));
    m_trainedLabel->setVisible(true);
    fitRanges();
    replot(rpQueuedReplot);
}

void LengthAccuracyPlot::addRun(const QString &label, const std::map<int, LengthAccuracy> &byLength)
{
    setRun(runCount(), label, spreadByKey({exactMatchByLength(byLength)}));
}

void LengthAccuracyPlot::setRun(int index, const QString &label, const std::map<int, Spread> &byLength)
{
    if (index < 0 || index > runCount())
        return;
    if (index == runCount()) {
        const QColor color = runColor(index);
        m_runs << addSpreadGraphs(*this, yAxis, QPen(color, 2), label);
        m_runs.back().mean->setScatterStyle(
            QCPScatterStyle(kRunShapes[std::size_t(index) % std::size(kRunShapes)], color, Qt::white, 7));
    }
    m_runs[index].mean->setName(label);
    setSpreadData(m_runs[index], byLength, 100.0);
    fitRanges();
    replot(rpQueuedReplot);
}

QColor LengthAccuracyPlot::runColor(int index)
{
    return kRunColors[std::size_t(index) % std::size(kRunColors)];
}

void LengthAccuracyPlot::fitRanges()
{
    legend->setVisible(!m_runs.isEmpty());
    int low = m_minLength > 0 ? m_minLength : 1, high = std::max(m_maxLength, low + 1);
    for (int i = 0; i < graphCount(); ++i) {
        bool found = false;
        const QCPRange keys = graph(i)->getKeyRange(found);
        if (found) {
            low = std::min(low, int(keys.lower));
            high = std::max(high, int(keys.upper));
        }
    }
    xAxis->setRange(low - 0.6, high + 0.6);
    yAxis->setRange(-2, 105);
}

bool LengthAccuracyPlot::exportImage(const QString &path, int width, int height, QString *error)
{
    const bool written = exportPlotImage(*this, path, width, height, error);
    replot(rpQueuedReplot);  // the export laid the plot out at its own size
    return written;
}
