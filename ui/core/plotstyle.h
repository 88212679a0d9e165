#pragma once

#include <QFont>
#include <QString>

class QCPTextElement;
class QCustomPlot;

// The fonts every AttnScope plot uses, derived from the widget's font so they follow the desktop,
// at the view scale (plottheme.h).
struct PlotFonts {
    QFont tick;
    QFont label;
    QFont title;
};

PlotFonts plotFonts(const QFont &base);

// Inserts a row above the axis rect holding a bold title, and returns the title element.
QCPTextElement *addPlotTitle(QCustomPlot &plot, const QString &text, const PlotFonts &fonts);

class QCPItemText;

// A grey message centred in the axis rect, for plots with nothing to show.
QCPItemText *addPlotMessage(QCustomPlot &plot, const PlotFonts &fonts);

// Shows `text` in `message`, broken into lines at spaces so no line is wider than the plot.
void showPlotMessage(QCustomPlot &plot, QCPItemText &message, const QString &text);

// Moves the legend out of the axis rect into a row beneath it, entries side by side (`columns`
// to a row), so it never covers the data.
void placeLegendBelow(QCustomPlot &plot, int columns);
