#include "ui/attention/attributionbarsplot.h"

#include "ui/core/okabeitocolors.h"
#include "ui/core/plotexport.h"
#include "ui/core/plotstyle.h"

#include <algorithm>
#include <cmath>

namespace {

constexpr int kMinimumWidth = 200;

QCPBars *makeBars(QCPAxisRect *rect, const QColor &color)
{
    auto *bars = new QCPBars(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
    bars->setBrush(color);
    bars->setPen(Qt::NoPen);
    bars->setWidth(0.7);
    return bars;
}

}

AttributionBarsPlot::AttributionBarsPlot(QWidget *parent) : QCustomPlot(parent)
{
    setAccessibleName(tr("Attribution small multiples"));
    // A message's unwrapped width would otherwise be the plot's minimum, and widen the dock and window.
    setMinimumWidth(kMinimumWidth);
    showMessage(tr("Click an output word of the heatmap to compare the methods on it."));
}

void AttributionBarsPlot::clearAll()
{
    // Plottables and items first: they hold pointers to the axes the layout is about to delete.
    clearPlottables();
    clearItems();
    plotLayout()->clear();
    plotLayout()->simplify();
}

void AttributionBarsPlot::showMessage(const QString &message)
{
    clearAll();
    m_title.clear();
    m_words.clear();
    m_methods.clear();
    m_message = message;
    const PlotFonts fonts = plotFonts(font());
    auto *text = new QCPTextElement(this, message, fonts.label);
    text->setTextColor(QColor(110, 110, 110));
    text->setTextFlags(Qt::AlignCenter | Qt::TextWordWrap);
    plotLayout()->addElement(0, 0, text);
    setAccessibleDescription(message);
    replot(rpQueuedReplot);
}

void AttributionBarsPlot::setScores(const QString &title, const QStringList &words,
                                    const std::vector<MethodScores> &methods)
{
    for (const MethodScores &method : methods)
        if (method.scores.size() != std::size_t(words.size())) {
            showMessage(tr("Cannot show %1: %2 scores for %3 words")
                            .arg(QString::fromUtf8(attributionMethodTitle(method.method)))
                            .arg(method.scores.size())
                            .arg(words.size()));
            return;
        }
    if (methods.empty() || words.isEmpty()) {
        showMessage(tr("Nothing to compare."));
        return;
    }
    clearAll();
    m_title = title;
    m_words = words;
    m_methods = methods;
    m_message.clear();
    const PlotFonts fonts = plotFonts(font());
    QFont small = fonts.tick;
    small.setPointSizeF(small.pointSizeF() * 0.9);
    auto *heading = new QCPTextElement(this, title, fonts.title);
    plotLayout()->addElement(0, 0, heading);
    auto *margins = new QCPMarginGroup(this);
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (int i = 0; i < words.size(); ++i)
        ticker->addTick(i, words[i]);

    QStringList description;
    for (std::size_t m = 0; m < methods.size(); ++m) {
        const MethodScores &method = methods[m];
        auto *rect = new QCPAxisRect(this);
        plotLayout()->addElement(int(m) + 1, 0, rect);
        rect->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
        rect->setupFullAxesBox(false);
        QCPAxis *x = rect->axis(QCPAxis::atBottom);
        QCPAxis *y = rect->axis(QCPAxis::atLeft);
        rect->axis(QCPAxis::atTop)->setVisible(false);
        rect->axis(QCPAxis::atRight)->setVisible(false);
        x->setTicker(ticker);
        x->grid()->setVisible(false);
        x->setTickLabels(m + 1 == methods.size());
        x->setTickLabelFont(fonts.tick);
        x->setTickLabelRotation(words.size() > 8 ? -45 : 0);
        x->setRange(-0.6, words.size() - 0.4);
        y->setTickLabelFont(small);
        y->ticker()->setTickCount(2);
        y->grid()->setZeroLinePen(QPen(QColor(90, 90, 90), 1));

        QCPBars *positive = makeBars(rect, okabeito::blue);
        QCPBars *negative = makeBars(rect, okabeito::vermillion);
        double low = 0, high = 0;
        for (int i = 0; i < words.size(); ++i) {
            const double score = method.scores[std::size_t(i)];
            if (!std::isfinite(score))
                continue;
            (score >= 0 ? positive : negative)->addData(i, score);
            low = std::min(low, score);
            high = std::max(high, score);
        }
        const double span = std::max(high - low, 1e-6);
        y->setRange(low - (low < 0 ? 0.1 * span : 0), high + 0.25 * span);

        QString name = QString::fromUtf8(attributionMethodTitle(method.method));
        if (!method.note.isEmpty())
            name += QStringLiteral("  ") + method.note;
        auto *label = new QCPItemText(this);
        label->setClipToAxisRect(false);
        label->position->setType(QCPItemPosition::ptAxisRectRatio);
        label->position->setAxisRect(rect);
        label->position->setCoords(0.01, 0.0);
        label->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
        label->setFont(small);
        label->setText(name);
        label->setBrush(QColor(255, 255, 255, 200));
        description << name;
    }
    setAccessibleDescription(title + QStringLiteral(": ") + description.join(QStringLiteral("; ")));
    replot(rpQueuedReplot);
}

bool AttributionBarsPlot::exportImage(const QString &path, int width, int height, QString *error)
{
    const bool written = exportPlotImage(*this, path, width, height, error);
    replot(rpQueuedReplot);
    return written;
}

bool AttributionBarsPlot::exportCsv(const QString &path, QString *error) const
{
    if (m_methods.empty()) {
        if (error)
            *error = tr("No scores to export: click an output word of the heatmap first.");
        return false;
    }
    QString csv = QStringLiteral("word");
    for (const MethodScores &method : m_methods)
        csv += QLatin1Char(',') + QString::fromUtf8(attributionMethodName(method.method));
    csv += QLatin1Char('\n');
    for (int i = 0; i < m_words.size(); ++i) {
        csv += csvField(m_words[i]);
        for (const MethodScores &method : m_methods)
            csv += QLatin1Char(',') + QString::number(method.scores[std::size_t(i)], 'g', 8);
        csv += QLatin1Char('\n');
    }
    return writeFileAtomically(path, csv.toUtf8(), error);
}
