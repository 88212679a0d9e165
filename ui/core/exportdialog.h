#pragma once

#include <QSize>
#include <QString>

class QWidget;

// Asks where to export: the last export folder (remembered), `defaultName` in it, the chosen
// filter's suffix added when the name has none. Empty when the user cancels.
QString askExportPath(QWidget *parent, const QString &title, const QString &defaultName, const QString &filters);
// The widget's size, widened to a legible export of at least 1200 pixels across.
QSize exportSize(const QWidget *widget);
// Success in the window's status bar, failure in a message box.
void reportExport(QWidget *parent, bool ok, const QString &path, const QString &error);
