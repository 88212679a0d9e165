#include "ui/attention/wordremovalplot.h"

#include "ui/core/okabeitocolors.h"
#include "ui/core/plotexport.h"
#include "ui/core/plotstyle.h"

#include <algorithm>

namespace {

// Okabe and Ito's blue for attention and vermillion for the fall: they differ in lightness too.
const QColor kAttentionColor = okabeito::blue;
const QColor kFallColor = okabeito::vermillion;

QCPBars *makeBars(QCPAxis *key, QCPAxis *value, const QString &name, const QColor &color, QCPBarsGroup *group)
{
    auto *bars = new QCPBars(key, value);
    bars->setName(name);
    bars->setBrush(color);
    bars->setPen(Qt::NoPen);
    bars->setWidth(0.38);
    bars->setBarsGroup(group);
    return bars;
}

} // namespace

WordRemovalPlot::WordRemovalPlot(QWidget *parent)
    : QCustomPlot(parent)
{
    const PlotFonts fonts = plotFonts(font());
    addPlotTitle(*this, tr("Attention vs. removal cost"), fonts);
    legend->setVisible(true);
    legend->setFont(fonts.tick);
    placeLegendBelow(*this, 2);
    auto *group = new QCPBarsGroup(this);
    group->setSpacing(0);
    m_attention = makeBars(xAxis, yAxis, tr("attention received"), kAttentionColor, group);
    m_fall = makeBars(xAxis, yAxis2, tr("log P fall without it"), kFallColor, group);

    yAxis->setLabel(tr("attention (Σ weights)"));
    yAxis->setLabelColor(kAttentionColor);
    yAxis->setTickLabelColor(kAttentionColor);
    yAxis2->setLabel(tr("log P fall (nats)"));
    yAxis2->setVisible(true);
    yAxis2->setLabelColor(kFallColor);
    yAxis2->setTickLabelColor(kFallColor);
    xAxis->grid()->setVisible(false);
    xAxis->setTicker(QSharedPointer<QCPAxisTickerText>::create());
    for (QCPAxis *axis : {xAxis, yAxis, yAxis2}) {
        axis->setTickLabelFont(fonts.tick);
        axis->setLabelFont(fonts.label);
    }
    m_message = addPlotMessage(*this, fonts);
    showMessage(tr("Type a sentence to see which words the output needs."));
}

void WordRemovalPlot::clearBars()
{
    m_attention->data()->clear();
    m_fall->data()->clear();
    qSharedPointerCast<QCPAxisTickerText>(xAxis->ticker())->clear();
}

void WordRemovalPlot::showMessage(const QString &message)
{
    clearBars();
    xAxis->setRange(0, 1);
    yAxis->setRange(0, 1);
    yAxis2->setRange(0, 1);
    m_messageText = message;
    showPlotMessage(*this, *m_message, message);
    setAccessibleDescription(message);
    replot(rpQueuedReplot);
}

void WordRemovalPlot::setEffect(const WordRemovalEffect &effect)
{
    clearBars();
    m_message->setVisible(false);
    auto ticker = qSharedPointerCast<QCPAxisTickerText>(xAxis->ticker());
    double attentionTop = 0, fallTop = 0, fallBottom = 0;
    QStringList description;
    for (std::size_t i = 0; i < effect.words.size(); ++i) {
        const WordRemoval &w = effect.words[i];
        const double key = double(i) + 1;
        m_attention->addData(key, w.attention);
        m_fall->addData(key, w.logProbFall);
        ticker->addTick(key, QString::fromStdString(w.word));
        attentionTop = std::max(attentionTop, w.attention);
        fallTop = std::max(fallTop, w.logProbFall);
        fallBottom = std::min(fallBottom, w.logProbFall);
        description << tr("%1: attention %2, fall %3").arg(QString::fromStdString(w.word))
                           .arg(w.attention, 0, 'f', 2).arg(w.logProbFall, 0, 'f', 2);
    }
    xAxis->setRange(0.4, double(effect.words.size()) + 0.6);
    fitTickLabels();
    // Both axes start at the same height: a fall below zero (the output became likelier) pulls
    // the attention axis down by the same share, so the zero lines stay one line.
    attentionTop = std::max(attentionTop, 1e-3) * 1.1;
    fallTop = std::max(fallTop, 1e-3) * 1.1;
    const double below = fallBottom < 0 ? fallBottom * 1.1 / fallTop : 0;
    yAxis->setRange(below * attentionTop, attentionTop);
    yAxis2->setRange(below * fallTop, fallTop);
    setAccessibleDescription(description.join(QStringLiteral("; ")));
    replot(rpQueuedReplot);
}

// The words stand level while they fit side by side with a space between them, else tilted.
void WordRemovalPlot::fitTickLabels()
{
    const QFontMetrics metrics(xAxis->tickLabelFont());
    int needed = 0;
    for (const QString &word : qSharedPointerCast<QCPAxisTickerText>(xAxis->ticker())->ticks())
        needed += metrics.horizontalAdvance(word) + metrics.averageCharWidth();
    const int available = axisRect()->width() > 0 ? axisRect()->width() : width() * 2 / 3;
    xAxis->setTickLabelRotation(needed > available ? 45 : 0);
}

// The message was broken into lines for the width of the moment (a hidden dock's, perhaps); the
// words may fit level now, or no longer.
void WordRemovalPlot::resizeEvent(QResizeEvent *event)
{
    QCustomPlot::resizeEvent(event);
    updateLayout();
    if (m_message->visible())
        showPlotMessage(*this, *m_message, m_messageText);
    else
        fitTickLabels();
}

bool WordRemovalPlot::exportImage(const QString &path, int width, int height, QString *error)
{
    const bool written = exportPlotImage(*this, path, width, height, error);
    replot(rpQueuedReplot);  // the export laid the plot out at its own size
    return written;
}
