#pragma once

#include <QByteArray>
#include <QString>

class QCustomPlot;

// Renders `plot` offscreen at exactly width x height pixels (points for PDF) into `path`; the
// format follows the suffix: .png, .jpg/.jpeg or .pdf. The file appears complete or not at all.
bool exportPlotImage(QCustomPlot &plot, const QString &path, int width, int height, QString *error);

// Replaces `path` with `contents` in one step, so a failed write leaves no partial file.
bool writeFileAtomically(const QString &path, const QByteArray &contents, QString *error);

// Quotes a CSV field when it holds a comma, quote or line break (RFC 4180).
QString csvField(const QString &text);
