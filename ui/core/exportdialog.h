#pragma once

#include <QSize>
#include <QString>

#include <functional>

class QWidget;

// The steps every "Export…" action shares: ask where, pick the size, tell how it went.

// Asks for a file to write, starting in the folder of the last export (remembered in QSettings
// as "exportDirectory"). A name typed without a suffix gets the one of the chosen filter, e.g.
// "PNG image (*.png)" -> ".png". Empty when the user cancels.
QString askExportPath(QWidget *parent, const QString &title, const QString &defaultName, const QString &filters);

// Asks for a folder to write a series of files into, starting where askExportPath does and
// remembered as it is. Empty when the user cancels.
QString askExportFolder(QWidget *parent, const QString &title);

// The suffix rule of askExportPath: `path` unchanged when it has a suffix, otherwise with the
// first suffix of `selectedFilter`, or of `defaultName` when the filter names none.
QString withFilterSuffix(const QString &path, const QString &selectedFilter, const QString &defaultName);

// The file-dialog filters for a plot: PNG, PDF, SVG and JPEG, as exportPlotImage writes them.
QString plotImageFilters();

// Wide enough to print, in the shape `widget` has on screen (at most 2:1 either way).
QSize exportSize(const QWidget *widget);

// Success goes to the status bar of the main window `parent` is in, for a few seconds; a failure
// to a warning box that gives `error`.
void reportExport(QWidget *parent, bool ok, const QString &path, const QString &error);

// The whole of an Export entry: ask where, write, tell how it went. An image is written at
// exportSize() of `shownAs`, the view as it is on screen, in the format of the chosen suffix.
using ImageWriter = std::function<bool(const QString &path, int width, int height, QString *error)>;
using FileWriter = std::function<bool(const QString &path, QString *error)>;
void exportImageWithDialog(QWidget *parent, const QString &title, const QString &defaultName, const QWidget *shownAs,
                           const ImageWriter &write);
void exportFileWithDialog(QWidget *parent, const QString &title, const QString &defaultName, const QString &filters,
                          const FileWriter &write);
