#pragma once

#include <QString>

class QWidget;

// A widget that is not a plot (a table, a panel of numbers) as an image: PNG, JPEG, PDF or SVG by
// the suffix, as exportPaintedImage writes them. The widget is drawn as it is on screen, scaled to
// width x height; the drawing stays vector text in PDF and SVG.
bool exportWidgetImage(QWidget &widget, const QString &path, int width, int height, QString *error);
