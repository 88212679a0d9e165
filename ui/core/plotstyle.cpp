#include "ui/core/plotstyle.h"

#include "ui/core/plottheme.h"

#include <qcustomplot.h>

#include <algorithm>

PlotFonts plotFonts(const QFont &base)
{
    PlotFonts fonts{base, base, base};
    fonts.tick.setPointSizeF(9 * viewScale());
    fonts.label.setPointSizeF(10 * viewScale());
    fonts.title.setPointSizeF(12 * viewScale());
    fonts.title.setBold(true);
    return fonts;
}

QCPTextElement *addPlotTitle(QCustomPlot &plot, const QString &text, const PlotFonts &fonts)
{
    plot.plotLayout()->insertRow(0);
    auto *title = new QCPTextElement(&plot, text, fonts.title);
    plot.plotLayout()->addElement(0, 0, title);
    return title;
}

QCPItemText *addPlotMessage(QCustomPlot &plot, const PlotFonts &fonts)
{
    auto *message = new QCPItemText(&plot);
    message->position->setType(QCPItemPosition::ptAxisRectRatio);
    message->position->setCoords(0.5, 0.5);
    message->setPositionAlignment(Qt::AlignCenter);
    message->setTextAlignment(Qt::AlignCenter);
    message->setFont(fonts.title);
    message->setColor(QColor(90, 90, 90));
    message->setSelectable(false);
    return message;
}

void showPlotMessage(QCustomPlot &plot, QCPItemText &message, const QString &text)
{
    const QFontMetrics metrics(message.font());
    const int maxWidth = std::max(120, int(0.9 * plot.axisRect()->width()));
    QStringList lines;
    QString line;
    for (const QString &word : text.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        const QString candidate = line.isEmpty() ? word : line + QLatin1Char(' ') + word;
        if (!line.isEmpty() && metrics.horizontalAdvance(candidate) > maxWidth) {
            lines << line;
            line = word;
        } else {
            line = candidate;
        }
    }
    if (!line.isEmpty())
        lines << line;
    message.setText(lines.join(QLatin1Char('\n')));
    message.setVisible(!lines.isEmpty());
}

void placeLegendBelow(QCustomPlot &plot, int columns)
{
    QCPLegend *legend = plot.legend;
    plot.axisRect()->insetLayout()->take(legend);
    // Between two empty elements: a grid cell's width is capped by the narrowest maximum in its
    // column, and an empty legend's maximum is its margins, which would squeeze the axis rect.
    auto *row = new QCPLayoutGrid;
    const int at = plot.plotLayout()->rowCount();
    plot.plotLayout()->addElement(at, 0, row);
    plot.plotLayout()->setRowStretchFactor(at, 0.001);
    row->addElement(0, 0, new QCPLayoutElement(&plot));
    row->addElement(0, 1, legend);
    row->addElement(0, 2, new QCPLayoutElement(&plot));
    row->setColumnStretchFactors({1, 0.001, 1});
    legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    legend->setWrap(columns);
    legend->setBorderPen(Qt::NoPen);
    legend->setMargins(QMargins(4, 0, 4, 4));
}
