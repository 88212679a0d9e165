#pragma once

#include <QByteArray>
#include <QSize>
#include <QString>

class QCustomPlot;

// Renders `plot` offscreen at exactly width x height pixels (points for PDF) into `path`; the
// format follows the suffix: .png, .jpg/.jpeg, .pdf or .svg. The file appears complete or not at all.
// Raster images wider than a screen plot are laid out at exportLayoutSize() and drawn scaled up,
// so fonts and lines keep the proportions they have on screen instead of shrinking.
bool exportPlotImage(QCustomPlot &plot, const QString &path, int width, int height, QString *error);
QSize exportLayoutSize(int width, int height);

// The engine's writeFileAtomically (engine/core/atomicfile.h) for Qt callers: `path` is replaced
// in one step, so a failed write leaves no partial file; on failure `error` says why.
bool writeFileAtomically(const QString &path, const QByteArray &contents, QString *error);

// Quotes a CSV field when it holds a comma, quote or line break (RFC 4180).
QString csvField(const QString &text);
