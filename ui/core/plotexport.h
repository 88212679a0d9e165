#pragma once

#include <QByteArray>
#include <QSize>
#include <QString>

#include <functional>

class QCustomPlot;
class QPainter;
class QRectF;

// Renders `plot` offscreen at exactly width x height pixels (points for PDF) into `path`; the
// format follows the suffix: .png, .jpg/.jpeg, .pdf or .svg. The file appears complete or not at all.
// Raster images wider than a screen plot are laid out at exportLayoutSize() and drawn scaled up,
// so fonts and lines keep the proportions they have on screen instead of shrinking.
bool exportPlotImage(QCustomPlot &plot, const QString &path, int width, int height, QString *error);
QSize exportLayoutSize(int width, int height);

// The same formats for a view that paints itself: `paint` draws into the given rectangle (pixels
// for images, points for PDF, user units for SVG) on a white page. Raster images are drawn
// `rasterScale` times larger than `size`, so small views stay sharp; PDF and SVG stay vectors.
bool exportPaintedImage(const QString &path, QSize size, const std::function<void(QPainter &, const QRectF &)> &paint,
                        QString *error, double rasterScale = 1);

// The engine's writeFileAtomically (engine/core/atomicfile.h) for Qt callers: `path` is replaced
// in one step, so a failed write leaves no partial file; on failure `error` says why.
bool writeFileAtomically(const QString &path, const QByteArray &contents, QString *error);

// Quotes a CSV field when it holds a comma, quote or line break (RFC 4180).
QString csvField(const QString &text);
