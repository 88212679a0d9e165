#pragma once

class QColor;
class QCustomPlot;
class QPalette;

// How every plot is drawn right now: at the view scale the user chose (View ▸ Zoom, Presentation)
// and in the application palette's colours, light or dark.
//
// Plots are written for scale 1 on a white page; the theme carries that design over. Line widths
// and marker sizes are scaled by the view scale; greys (black ink to white page) become the same mix
// of the palette's Text and Base colours, so a dark palette gives light text and lines on a dark
// page, while coloured data lines and the colour maps keep their colours. Fonts are the exception:
// plotFonts() already includes the scale, so a font a plot sets is taken as drawn at the scale of
// the moment. The theme remembers what each plot part was given, so a plot may restyle its parts at
// any time and the theme follows.

// The factor the application's text, plot fonts, lines and markers are drawn at; 1 is the design size.
double viewScale();

// Sets the view scale for the whole application: its default font (from which the widgets take
// theirs), the fonts widgets were given a size of their own, and every plot, at once.
void setViewScale(double scale);

// `design`, a grey meant for a white page, as the same mix of `palette`'s Text and Base colours
// (what the theme does to a plot's greys); a coloured `design` is returned as it is. For views
// that paint themselves.
QColor onPalette(const QColor &design, const QPalette &palette);

// Brings `plot` to the current scale and its palette. Cheap when nothing changed.
void applyPlotTheme(QCustomPlot &plot);

// From now on keeps every QCustomPlot of the application themed: before each of its replots (so
// graphs and items added later follow too) and when its palette changes. Call once, after the
// QApplication exists.
void followPlotTheme();
